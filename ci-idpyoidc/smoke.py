"""End-to-end check of the CI idpyoidc provider over HTTP: PAR, authorization, DPoP-bound tokens, refresh, userinfo,
the DPoP-protected resource, and the refusals (replayed proof, wrong htu, missing nonce, expired request_uri).

Usage: smoke.py ISSUER   (prints one line per check, last line `smoke: N passed, N failed`; exit 1 on a failure)
"""

import base64
import hashlib
import json
import secrets
import sys
import time
import uuid
from urllib.parse import parse_qs, urlsplit

import requests
from cryptojwt.jwk.ec import new_ec_key
from cryptojwt.jws.jws import JWS

ISSUER = sys.argv[1].rstrip("/") if len(sys.argv) > 1 else "http://127.0.0.1:9500"
REDIRECT = "http://127.0.0.1:53682/callback"
results = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f"  ({detail})"))


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Key:
    def __init__(self):
        self.key = new_ec_key("P-256")
        self.jkt = self.key.thumbprint("SHA-256").decode()

    def proof(self, method, url, token=None, nonce=None, jti=None):
        claims = {"jti": jti or str(uuid.uuid4()), "htm": method, "htu": url, "iat": int(time.time())}
        if token:
            claims["ath"] = b64url(hashlib.sha256(token.encode()).digest())
        if nonce:
            claims["nonce"] = nonce
        jws = JWS(json.dumps(claims), alg="ES256")
        return jws.sign_compact([self.key], typ="dpop+jwt", jwk=self.key.serialize(private=False))


def sign_in(meta, key, client_id="latchkey-public", expire=False):
    verifier = secrets.token_urlsafe(48)
    challenge = b64url(hashlib.sha256(verifier.encode()).digest())
    pushed = requests.post(meta["pushed_authorization_request_endpoint"], data={
        "response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT, "scope": "openid profile email",
        "state": "st", "nonce": "nn", "code_challenge": challenge, "code_challenge_method": "S256",
        "dpop_jkt": key.jkt})
    request_uri = pushed.json().get("request_uri")
    if expire:
        requests.post(ISSUER + "/test/expire-request-uri", data={"request_uri": request_uri})
    authorize = requests.get(meta["authorization_endpoint"], params={"client_id": client_id,
                             "request_uri": request_uri}, allow_redirects=False)
    code = parse_qs(urlsplit(authorize.headers.get("Location", "")).query).get("code", [None])[0]
    return pushed, authorize, code, verifier


def main():
    meta = requests.get(ISSUER + "/.well-known/openid-configuration").json()
    token_url = meta["token_endpoint"]
    resource = ISSUER + "/resource"
    check("discovery: issuer", meta.get("issuer") == ISSUER)
    check("discovery: DPoP ES256", meta.get("dpop_signing_alg_values_supported") == ["ES256"])
    check("discovery: PAR required", meta.get("require_pushed_authorization_requests") is True)
    check("jwks", len(requests.get(meta["jwks_uri"]).json().get("keys", [])) >= 1)

    key = Key()
    pushed, authorize, code, verifier = sign_in(meta, key)
    check("PAR: 201 with request_uri and expires_in", pushed.status_code == 201
          and pushed.json().get("request_uri", "").startswith("urn:") and pushed.json().get("expires_in") == 60)
    check("authorization: 302 to the loopback redirect with a code", authorize.status_code == 302 and code)
    token = requests.post(token_url, data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
                          "client_id": "latchkey-public", "code_verifier": verifier},
                          headers={"DPoP": key.proof("POST", token_url)})
    body = token.json()
    check("token: DPoP-bound", token.status_code == 200 and body.get("token_type") == "DPoP", token.text[:200])
    at = body["access_token"]
    claims = json.loads(base64.urlsafe_b64decode(at.split(".")[1] + "=="))
    check("token: cnf.jkt is the key's thumbprint", claims.get("cnf", {}).get("jkt") == key.jkt)
    check("token: refresh and ID tokens", "refresh_token" in body and "id_token" in body)

    def get(url, token=at, proof=None, scheme="DPoP"):
        return requests.get(url, headers={"Authorization": f"{scheme} {token}",
                                          "DPoP": proof or key.proof("GET", url, token)})

    check("userinfo with DPoP", get(meta["userinfo_endpoint"]).json().get("email") == "ada@example.com")
    ok = get(resource)
    check("resource with DPoP", ok.status_code == 200 and ok.json().get("jkt") == key.jkt, ok.text)
    proof = key.proof("GET", resource, at)
    first, again = get(resource, proof=proof), get(resource, proof=proof)
    check("resource: a replayed proof is refused", first.status_code == 200 and again.status_code == 401
          and "invalid_dpop_proof" in again.headers.get("WWW-Authenticate", ""), again.text)
    wrong = get(resource, proof=key.proof("GET", ISSUER + "/elsewhere", at))
    check("resource: a wrong htu is refused", wrong.status_code == 401, wrong.text)
    check("resource: a Bearer downgrade is refused", get(resource, scheme="Bearer").status_code == 401)
    other = Key()
    check("resource: another key's proof is refused", get(resource, proof=other.proof("GET", resource, at))
          .status_code == 401)
    nonce_url = resource + "/nonce"
    first = get(nonce_url)
    nonce = first.headers.get("DPoP-Nonce")
    check("resource/nonce: use_dpop_nonce with a DPoP-Nonce", first.status_code == 401 and nonce
          and "use_dpop_nonce" in first.headers.get("WWW-Authenticate", ""))
    check("resource/nonce: the retry with the nonce", get(nonce_url, proof=key.proof("GET", nonce_url, at, nonce))
          .status_code == 200)

    refreshed = requests.post(token_url, data={"grant_type": "refresh_token", "refresh_token": body["refresh_token"],
                              "client_id": "latchkey-public"}, headers={"DPoP": key.proof("POST", token_url)})
    check("refresh: DPoP-bound again", refreshed.status_code == 200 and refreshed.json().get("token_type") == "DPoP")
    stolen = requests.post(token_url, data={"grant_type": "refresh_token", "refresh_token": body["refresh_token"],
                           "client_id": "latchkey-public"}, headers={"DPoP": other.proof("POST", token_url)})
    check("refresh: with another key is refused", stolen.status_code == 400, stolen.text)

    # Token endpoint: wrong htu, no proof, nonce.
    pushed, authorize, code, verifier = sign_in(meta, key)
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT, "client_id": "latchkey-public",
            "code_verifier": verifier}
    bad = requests.post(token_url, data=form, headers={"DPoP": key.proof("POST", ISSUER + "/tok")})
    check("token: a wrong htu is refused", bad.status_code == 400 and bad.json().get("error") == "invalid_dpop_proof")
    bad = requests.post(token_url, data=form)
    check("token: no proof is refused", bad.status_code == 400)
    bad = requests.post(token_url, data=form, headers={"DPoP": other.proof("POST", token_url)})
    check("token: a key other than the pushed dpop_jkt is refused", bad.status_code == 400, bad.text)

    pushed, authorize, code, verifier = sign_in(meta, key, "latchkey-nonce")
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT, "client_id": "latchkey-nonce",
            "code_verifier": verifier}
    first = requests.post(token_url, data=form, headers={"DPoP": key.proof("POST", token_url)})
    nonce = first.headers.get("DPoP-Nonce")
    check("token (latchkey-nonce): 400 use_dpop_nonce", first.status_code == 400
          and first.json().get("error") == "use_dpop_nonce" and nonce)
    second = requests.post(token_url, data=form, headers={"DPoP": key.proof("POST", token_url, nonce=nonce)})
    check("token (latchkey-nonce): the retry with the nonce", second.status_code == 200, second.text[:200])

    plain = requests.get(meta["authorization_endpoint"], params={"client_id": "latchkey-public", "response_type": "code",
                         "redirect_uri": REDIRECT}, allow_redirects=False)
    check("authorization without PAR is refused", plain.status_code == 400)
    ru = requests.post(meta["pushed_authorization_request_endpoint"], data={
        "response_type": "code", "client_id": "latchkey-public", "redirect_uri": REDIRECT, "scope": "openid",
        "state": "st", "code_challenge": "x" * 43, "code_challenge_method": "plain"}).json()["request_uri"]
    plain = requests.get(meta["authorization_endpoint"], params={"client_id": "latchkey-public", "request_uri": ru},
                         allow_redirects=False)
    check("PKCE plain is refused", plain.status_code == 400, plain.text)
    pushed, authorize, code, verifier = sign_in(meta, key)
    bad = requests.post(token_url, data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
                        "client_id": "latchkey-public", "code_verifier": verifier + "x"},
                        headers={"DPoP": key.proof("POST", token_url)})
    check("token: a wrong code_verifier is refused", bad.status_code == 400, bad.text)
    pushed, authorize, code, verifier = sign_in(meta, key, "latchkey-par-short", expire=True)
    check("PAR (latchkey-par-short): expires_in 2", pushed.json().get("expires_in") == 2)
    check("PAR: an expired request_uri is refused", authorize.status_code == 400
          and authorize.json().get("error") == "invalid_request_uri", authorize.text)

    print(f"smoke: {results['passed']} passed, {results['failed']} failed")
    sys.exit(1 if results["failed"] else 0)


if __name__ == "__main__":
    main()
