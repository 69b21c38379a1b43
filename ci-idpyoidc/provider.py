"""The provider of ci-idpyoidc: idpyoidc 5.0.0's Server configured with its PAR endpoint, PKCE and DPoP add-ons,
and the DPoP checks idpyoidc leaves out (jti replay, iat window, nonces). server.py serves it over HTTP; see
README.md, "What idpyoidc does, and what server.py adds".
"""

import base64
import hashlib
import os
import secrets
import threading
import time

from cryptojwt.jwk.jwk import key_from_jwk_dict
from idpyoidc.server import Server
from idpyoidc.server.configure import OPConfiguration
from idpyoidc.server.oauth2.add_on.dpop import DPoPProof, userinfo_post_parse_request
from idpyoidc.server.oauth2.add_on.pkce import CC_METHOD
from idpyoidc.server.user_authn.authn_context import INTERNETPROTOCOLPASSWORD

USER = "ada"
CLIENTS = {
    # client_id: what is special about it
    "latchkey-public": {},
    "latchkey-nonce": {"token_nonce": True},  # the token endpoint wants a DPoP nonce
    # pushed request_uris announce expires_in 2 (a client keeping a 2 s margin pushes again at once); the server
    # refuses one as expired only after POST /test/expire-request-uri names it (no test waits on the clock)
    "latchkey-par-short": {"par_ttl": 2, "par_expires_on_demand": True},
}
PAR_TTL = 60
PAR_GRACE = 3  # seconds a request_uri is still accepted after its expires_in (clock skew)
PROOF_WINDOW = 60  # seconds a proof's iat may be off
NONCE_LIFETIME = 300
MAX_BODY = 64 * 1024


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Provider:
    """idpyoidc's Server plus what it leaves out. One lock: idpyoidc's state is not thread-safe."""

    def __init__(self, issuer: str, workdir: str):
        self.issuer = issuer
        self.lock = threading.Lock()
        self.seen_jti = {}  # jkt|jti -> expiry
        self.nonces = {}  # nonce -> expiry
        self.par_issued = {}  # request_uri -> {client_id, expires, dpop_jkt}
        self.code_jkt = {}  # authorization code -> the dpop_jkt it was pushed with
        self.refresh_jkt = {}  # refresh token -> the key its tokens are bound to
        os.makedirs(workdir, exist_ok=True)
        conf = {
            "issuer": issuer,
            "httpc_params": {"verify": False},
            "keys": {
                "private_path": os.path.join(workdir, "jwks.json"),
                "key_defs": [{"type": "RSA", "use": ["sig"]}, {"type": "EC", "crv": "P-256", "use": ["sig"]}],
                "read_only": False,
            },
            "token_handler_args": {
                "jwks_def": {
                    "private_path": os.path.join(workdir, "token_jwks.json"),
                    "read_only": False,
                    "key_defs": [{"type": "oct", "bytes": "24", "use": ["enc"], "kid": "code"}],
                },
                "code": {"kwargs": {"lifetime": 120}},
                "token": {
                    "class": "idpyoidc.server.token.jwt_token.JWTToken",
                    "kwargs": {"lifetime": 3600, "aud": [issuer + "/resource"]},
                },
                "refresh": {
                    "class": "idpyoidc.server.token.jwt_token.JWTToken",
                    "kwargs": {"lifetime": 86400, "aud": [issuer]},
                },
                "id_token": {"class": "idpyoidc.server.token.id_token.IDToken", "kwargs": {}},
            },
            "endpoint": {
                "provider_info": {
                    "path": ".well-known/openid-configuration",
                    "class": "idpyoidc.server.oidc.provider_config.ProviderConfiguration",
                    "kwargs": {},
                },
                "authorization": {
                    "path": "authorization",
                    "class": "idpyoidc.server.oidc.authorization.Authorization",
                    "kwargs": {
                        "response_types_supported": ["code"],
                        "response_modes_supported": ["query"],
                        "request_uri_parameter_supported": True,
                    },
                },
                "pushed_authorization": {
                    "path": "par",
                    "class": "idpyoidc.server.oauth2.pushed_authorization.PushedAuthorization",
                    "kwargs": {"client_authn_method": ["public"], "ttl": PAR_TTL},
                },
                "token": {
                    "path": "token",
                    "class": "idpyoidc.server.oidc.token.Token",
                    "kwargs": {"client_authn_method": ["public"]},
                },
                "userinfo": {
                    "path": "userinfo",
                    "class": "idpyoidc.server.oidc.userinfo.UserInfo",
                    "kwargs": {"client_authn_method": ["dpop"]},
                },
            },
            "add_on": {
                "pkce": {
                    "function": "idpyoidc.server.oauth2.add_on.pkce.add_support",
                    "kwargs": {"essential": True, "code_challenge_methods": {"S256": CC_METHOD["S256"]}},
                },
                "dpop": {
                    "function": "idpyoidc.server.oauth2.add_on.dpop.add_support",
                    "kwargs": {
                        "dpop_signing_alg_values_supported": ["ES256"],
                        "dpop_endpoints": ["token", "userinfo"],
                    },
                },
            },
            "authentication": {
                "anon": {
                    "acr": INTERNETPROTOCOLPASSWORD,
                    "class": "idpyoidc.server.user_authn.user.NoAuthn",
                    "kwargs": {"user": USER},
                }
            },
            "userinfo": {
                "class": "idpyoidc.server.user_info.UserInfo",
                "kwargs": {
                    "db": {
                        USER: {
                            "sub": USER,
                            "name": "Ada Lovelace",
                            "given_name": "Ada",
                            "family_name": "Lovelace",
                            "preferred_username": "ada",
                            "email": "ada@example.com",
                            "email_verified": True,
                        }
                    }
                },
            },
            "authz": {
                "class": "idpyoidc.server.authz.AuthzHandling",
                "kwargs": {
                    "grant_config": {
                        "usage_rules": {
                            "authorization_code": {
                                "supports_minting": ["access_token", "refresh_token", "id_token"],
                                "max_usage": 1,
                            },
                            "access_token": {},
                            "refresh_token": {
                                "supports_minting": ["access_token", "refresh_token", "id_token"],
                            },
                        },
                        "expires_in": 43200,
                    }
                },
            },
            "session_params": {"encrypter": {"kwargs": {"keys": {"key_defs": [
                {"type": "OCT", "use": ["enc"], "kid": "password"},
                {"type": "OCT", "use": ["enc"], "kid": "salt"},
            ]}}}},
            "template_dir": "templates",
        }
        self.server = Server(OPConfiguration(conf=conf, base_path=workdir), cwd=workdir)
        context = self.server.context
        # idpyoidc 5.0.0's DPoP hook computes ath as the hex SHA-256 of the token where RFC 9449 §4.2 says
        # base64url, so it refuses every correct proof at userinfo: userinfo's copy is taken out, and
        # Handler.userinfo checks the proof (with idpyoidc's DPoPProof) and ath itself. The token endpoint keeps
        # the hook (no ath there): it is what binds the tokens (dpop_jkt, cnf.jkt).
        userinfo = self.server.get_endpoint("userinfo")
        userinfo.post_parse_request = [m for m in userinfo.post_parse_request if m is not userinfo_post_parse_request]
        for client_id in CLIENTS:
            context.cdb[client_id] = {
                "client_id": client_id,
                "client_salt": secrets.token_hex(4),
                "token_endpoint_auth_method": "none",
                "redirect_uris": [("http://127.0.0.1/callback", {})],
                "response_types_supported": ["code"],
                "grant_types_supported": ["authorization_code", "refresh_token"],
                "allowed_scopes": ["openid", "profile", "email", "offline_access"],
                "dpop_jkt": {},
            }

    # -- helpers ---------------------------------------------------------------------------------------------

    def url(self, path):
        return self.issuer + path

    def configure_metadata(self):
        """Discovery as the clients need it (idpyoidc 5.0.0 drops the DPoP add-on's entry when it builds
        provider_info, and its token endpoint binds refreshed tokens only when that entry is there)."""
        info = self.server.context.provider_info
        info["dpop_signing_alg_values_supported"] = ["ES256"]
        info["require_pushed_authorization_requests"] = True
        info["jwks_uri"] = self.url("/jwks")
        info.pop("jwks", None)
        info["scopes_supported"] = ["openid", "profile", "email", "offline_access"]
        info["token_endpoint_auth_methods_supported"] = ["none"]
        info["code_challenge_methods_supported"] = ["S256"]
        info["response_modes_supported"] = ["query"]
        info["grant_types_supported"] = ["authorization_code", "refresh_token"]
        info["subject_types_supported"] = ["public"]
        info["id_token_signing_alg_values_supported"] = ["RS256", "ES256"]
        info["authorization_response_iss_parameter_supported"] = True

    # -- DPoP checks idpyoidc does not make -------------------------------------------------------------------

    def new_nonce(self):
        now = time.time()
        self.nonces = {n: t for n, t in self.nonces.items() if t > now}
        nonce = secrets.token_urlsafe(16)
        self.nonces[nonce] = now + NONCE_LIFETIME
        return nonce

    def check_proof(self, header, method, url, want_nonce, access_token=None):
        """Verifies a DPoP proof with idpyoidc's DPoPProof (signature, typ, alg), then htm/htu, iat, jti
        replay and (when wanted) the nonce. Returns (jkt, None) or (None, (error, description, give_nonce))."""
        if not header:
            return None, ("invalid_dpop_proof", "no DPoP proof", False)
        try:
            proof = DPoPProof().verify_header(header)
            proof.verify()
        except Exception as err:  # idpyoidc raises plain exceptions
            return None, ("invalid_dpop_proof", f"proof does not verify: {type(err).__name__}", False)
        if proof.get("alg") != "ES256":
            return None, ("invalid_dpop_proof", "alg is not ES256", False)
        if proof.get("htm") != method:
            return None, ("invalid_dpop_proof", "htm does not match", False)
        if proof.get("htu") != url.split("?")[0]:
            return None, ("invalid_dpop_proof", "htu does not match", False)
        iat = proof.get("iat")
        if not isinstance(iat, int) or abs(time.time() - iat) > PROOF_WINDOW:
            return None, ("invalid_dpop_proof", "iat outside the window", False)
        if access_token is not None:
            ath = b64url(hashlib.sha256(access_token.encode()).digest())
            if proof.get("ath") != ath:
                return None, ("invalid_dpop_proof", "ath does not match the access token", False)
        key = proof.key or key_from_jwk_dict(proof["jwk"])
        jkt = key.thumbprint("SHA-256").decode()
        if want_nonce:
            nonce = proof.get("nonce")
            if nonce not in self.nonces or self.nonces[nonce] < time.time():
                return None, ("use_dpop_nonce", "a DPoP nonce is required", True)
        now = time.time()
        self.seen_jti = {k: t for k, t in self.seen_jti.items() if t > now}
        replay_key = jkt + "|" + str(proof.get("jti"))
        if replay_key in self.seen_jti:
            return None, ("invalid_dpop_proof", "jti already used (replayed proof)", False)
        self.seen_jti[replay_key] = now + 2 * PROOF_WINDOW
        return jkt, None
