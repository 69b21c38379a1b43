"""A CI-only OpenID provider built from idpyoidc's server, with its DPoP and PAR support: the HTTP side.

Usage: server.py PORT WORKDIR   (PORT 0: an ephemeral port; the issuer is printed on stdout once listening)

provider.py configures idpyoidc (discovery, authorization for user `ada` logged in without a page, PAR, the token
endpoint with PKCE and the DPoP add-on, userinfo, JWKS). This file routes HTTP requests to its endpoints and adds
what idpyoidc 5.0.0 leaves out (README.md, "What idpyoidc does, and what server.py adds"): loopback redirect URIs
on any port (RFC 8252 §7.3), PAR required, request_uri expiry and single use, the pushed dpop_jkt at the code
exchange, refresh tokens bound to their key, the binding check at the resource, and a DPoP-protected resource at
/resource (/resource/nonce: one that wants a server nonce).
CI only: the signing keys are made on the first start (into WORKDIR); sessions and tokens are kept in memory.
"""

import json
import os
import sys
import time
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from idpyoidc.server.oauth2.add_on.dpop import userinfo_post_parse_request

from provider import CLIENTS, MAX_BODY, PAR_GRACE, PAR_TTL, USER, Provider


def json_body(obj):
    return json.dumps(obj).encode()


class Handler(BaseHTTPRequestHandler):
    provider: Provider = None  # set in main
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        sys.stderr.write("idpyoidc-ci: " + (fmt % args) + "\n")

    # -- plumbing -------------------------------------------------------------------------------------------

    def send(self, status, body=b"", headers=()):
        if isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        names = set()
        for name, value in headers:
            self.send_header(name, value)
            names.add(name.lower())
        if "content-type" not in names and body:
            self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def error(self, status, error, description, headers=()):
        self.send(status, json_body({"error": error, "error_description": description}), headers)

    def http_info(self, url):
        headers = {k.lower(): v for k, v in self.headers.items()}
        return {"headers": headers, "url": url, "method": self.command, "cookie": None}

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            raise ValueError("body too large")
        return self.rfile.read(length).decode() if length else ""

    def do_GET(self):
        self.dispatch()

    def do_POST(self):
        self.dispatch()

    def dispatch(self):
        p = self.provider
        split = urlsplit(self.path)
        route = split.path
        url = p.url(route)
        try:
            body = self.read_body() if self.command == "POST" else ""
            with p.lock:
                handler = {
                    "/.well-known/openid-configuration": self.discovery,
                    "/jwks": self.jwks,
                    "/par": self.par,
                    "/authorization": self.authorization,
                    "/token": self.token,
                    "/userinfo": self.userinfo,
                    "/resource": self.resource,
                    "/resource/nonce": self.resource,
                    "/test/expire-request-uri": self.expire_request_uri,
                }.get(route)
                if handler is None:
                    self.error(404, "not_found", route)
                    return
                handler(split.query, body, url)
        except Exception as err:
            traceback.print_exc()
            self.error(500, "server_error", type(err).__name__)

    def run_endpoint(self, name, request, url, **process_args):
        """parse_request, process_request and do_response of an idpyoidc endpoint; sends its answer."""
        endpoint = self.provider.server.get_endpoint(name)
        info = self.http_info(url)
        try:
            parsed = endpoint.parse_request(request, http_info=info)
        except Exception as err:
            self.error(400, "invalid_request", f"{type(err).__name__}: {err}")
            return None
        if "error" in parsed:
            self.error(400, parsed["error"], parsed.get("error_description", ""))
            return None
        result = endpoint.process_request(parsed, http_info=info, **process_args)
        if "http_response" in result and isinstance(result["http_response"], dict):
            return result["http_response"]
        response = endpoint.do_response(request=parsed, **result)
        return response, result, parsed

    # -- routes ---------------------------------------------------------------------------------------------

    def discovery(self, query, body, url):
        response, _, _ = self.run_endpoint("provider_config", {}, url)
        self.send(200, response["response"])

    def jwks(self, query, body, url):
        self.send(200, json_body(self.provider.server.keyjar.export_jwks()))

    def allow_loopback(self, client_id, redirect_uri):
        """RFC 8252 §7.3: http://127.0.0.1:ANY-PORT/callback matches the registered http://127.0.0.1/callback
        (idpyoidc compares redirect URIs exactly, port included)."""
        client = self.provider.server.context.cdb.get(client_id)
        parts = urlsplit(redirect_uri or "")
        if client is None or parts.scheme != "http" or parts.hostname != "127.0.0.1" or parts.path != "/callback":
            return
        if parts.query or parts.fragment or parts.username:
            return
        if (redirect_uri, {}) not in client["redirect_uris"]:
            client["redirect_uris"].append((redirect_uri, {}))

    def par(self, query, body, url):
        p = self.provider
        form = {k: v[0] for k, v in parse_qs(body, keep_blank_values=True).items()}
        client_id = form.get("client_id", "")
        if client_id not in CLIENTS:
            self.error(401, "invalid_client", "unknown client")
            return
        if "request_uri" in form:
            self.error(400, "invalid_request", "request_uri is not allowed in a pushed request")
            return
        # RFC 9449 §10.1: a proof at the pushed authorization endpoint binds the code to its key; with dpop_jkt too,
        # both must name the same key. idpyoidc's DPoP add-on checks proofs at the token endpoint only (its other
        # endpoints' hook wants an access token). No nonce here: latchkey-nonce's is the token endpoint's.
        jkt = form.get("dpop_jkt")
        if self.headers.get("DPoP"):
            proved, failure = p.check_proof(self.headers.get("DPoP"), "POST", url, False)
            if failure:
                self.proof_failure(400, failure, resource=False)
                return
            if jkt and jkt != proved:
                self.error(400, "invalid_dpop_proof", "the proof's key is not the one dpop_jkt names")
                return
            jkt = proved
        self.allow_loopback(client_id, form.get("redirect_uri"))
        answer = self.run_endpoint("pushed_authorization", body, url)
        if answer is None:
            return
        if not isinstance(answer, dict) or "request_uri" not in answer:
            self.error(400, "invalid_request", "the pushed request was refused")
            return
        ttl = CLIENTS[client_id].get("par_ttl", PAR_TTL)
        # a client whose request_uris expire on demand keeps them until the test names one (never by the clock)
        expires = float("inf") if CLIENTS[client_id].get("par_expires_on_demand") else time.time() + ttl + PAR_GRACE
        p.par_issued[answer["request_uri"]] = {
            "client_id": client_id, "expires": expires, "dpop_jkt": jkt}
        self.send(201, json_body({"request_uri": answer["request_uri"], "expires_in": ttl}))

    def expire_request_uri(self, query, body, url):
        """Test control: the named request_uri of a client with par_expires_on_demand counts as expired from now."""
        form = {k: v[0] for k, v in parse_qs(body, keep_blank_values=True).items()}
        issued = self.provider.par_issued.get(form.get("request_uri", ""))
        if self.command != "POST" or issued is None or not CLIENTS[issued["client_id"]].get("par_expires_on_demand"):
            self.error(400, "invalid_request", "not an on-demand request_uri")
            return
        issued["expires"] = 0
        self.send(204, b"")

    def authorization(self, query, body, url):
        p = self.provider
        args = {k: v[0] for k, v in parse_qs(query, keep_blank_values=True).items()}
        request_uri = args.get("request_uri")
        if not request_uri:
            self.error(400, "invalid_request", "this server requires pushed authorization requests (RFC 9126)")
            return
        issued = p.par_issued.pop(request_uri, None)
        if issued is None or issued["client_id"] != args.get("client_id"):
            self.error(400, "invalid_request_uri", "unknown or already used request_uri")
            return
        if issued["expires"] < time.time():
            p.server.context.par_db.pop(request_uri, None)
            self.error(400, "invalid_request_uri", "the request_uri has expired")
            return
        # idpyoidc 5.0.0 verifies the query (response_type, redirect_uri, ...) before its own request_uri step
        # restores the pushed request, so RFC 9126 §4's query of only client_id and request_uri is refused:
        # the pushed request is restored here (once: it is removed) and handed over whole.
        pushed = p.server.context.par_db.pop(request_uri, None)
        if pushed is None:
            self.error(400, "invalid_request_uri", "unknown request_uri")
            return
        answer = self.run_endpoint("authorization", pushed.to_dict(), url)
        if answer is None:
            return
        response, result, parsed = answer
        location = response.get("response")
        if not location or not location.startswith("http://127.0.0.1"):
            self.error(400, "invalid_request", "no redirect")
            return
        code = parse_qs(urlsplit(location).query).get("code", [None])[0]
        if code and issued.get("dpop_jkt"):
            p.code_jkt[code] = issued["dpop_jkt"]
        self.send(302, b"", [("Location", location)])

    def proof_failure(self, status, failure, resource):
        error, description, give_nonce = failure
        headers = []
        if give_nonce:
            headers.append(("DPoP-Nonce", self.provider.new_nonce()))
        if resource:
            headers.append(("WWW-Authenticate", f'DPoP error="{error}", error_description="{description}"'))
        self.error(status, error, description, headers)

    def token(self, query, body, url):
        p = self.provider
        form = {k: v[0] for k, v in parse_qs(body, keep_blank_values=True).items()}
        client_id = form.get("client_id", "")
        if client_id not in CLIENTS:
            self.error(401, "invalid_client", "unknown client")
            return
        wants_nonce = CLIENTS[client_id].get("token_nonce", False)
        jkt, failure = p.check_proof(self.headers.get("DPoP"), "POST", url, wants_nonce)
        if failure:
            self.proof_failure(400, failure, resource=False)
            return
        grant = form.get("grant_type")
        if grant == "authorization_code":
            bound = p.code_jkt.pop(form.get("code", ""), None)
            if bound is not None and bound != jkt:
                self.error(400, "invalid_dpop_proof", "the proof's key is not the pushed dpop_jkt")
                return
        elif grant == "refresh_token":
            bound = p.refresh_jkt.get(form.get("refresh_token", ""))
            if bound is not None and bound != jkt:
                self.error(400, "invalid_grant", "the refresh token is bound to another key")
                return
        answer = self.run_endpoint("token", body, url, issue_refresh=True)
        if answer is None:
            return
        response, result, parsed = answer
        document = json.loads(response["response"])
        status = 400 if "error" in document else 200
        if status == 200 and document.get("refresh_token"):
            p.refresh_jkt[document["refresh_token"]] = jkt
        headers = [("DPoP-Nonce", p.new_nonce())] if wants_nonce else []
        self.send(status, json_body(document), headers)

    def bound_token(self, resource):
        """The access token of `Authorization: DPoP …` and the jkt idpyoidc bound it to, or an answer sent."""
        p = self.provider
        authorization = self.headers.get("Authorization") or ""
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "dpop" or not token:
            self.send(401, json_body({"error": "invalid_token"}),
                      [("WWW-Authenticate", 'DPoP error="invalid_token", algs="ES256"')])
            return None, None
        try:
            info = p.server.context.session_manager.get_session_info_by_token(
                token, handler_key="access_token", grant=True)
            item = info["grant"].get_token(token)
            if item is None or not item.is_active():
                raise ValueError("inactive")
            bound = info["grant"].extra.get("dpop_jkt")
        except Exception:
            self.send(401, json_body({"error": "invalid_token"}),
                      [("WWW-Authenticate", 'DPoP error="invalid_token", algs="ES256"')])
            return None, None
        return token, bound

    def resource(self, query, body, url):
        """A DPoP-protected resource (RFC 9449 §7): idpyoidc's userinfo_post_parse_request checks the proof
        (signature, htm, htu, ath); this adds the binding (cnf.jkt = the proof's key), jti replay, iat and, at
        /resource/nonce, a server nonce."""
        p = self.provider
        token, bound = self.bound_token(resource=True)
        if token is None:
            return
        try:
            checked = userinfo_post_parse_request(
                {}, "", p.server.context, {}, http_info=self.http_info(url))
        except Exception as err:
            self.proof_failure(401, ("invalid_dpop_proof", f"idpyoidc refused the proof: {err}", False), True)
            return
        jkt, failure = p.check_proof(self.headers.get("DPoP"), self.command, url, url.endswith("/nonce"), token)
        if failure:
            self.proof_failure(401, failure, resource=True)
            return
        if bound is None or bound != jkt or checked.get("dpop_jkt") != jkt:
            self.proof_failure(401, ("invalid_token", "the token is not bound to the proof's key", False), True)
            return
        self.send(200, json_body({"resource": "latchkey", "user": USER, "jkt": jkt, "method": self.command}))

    def userinfo(self, query, body, url):
        p = self.provider
        token, bound = self.bound_token(resource=True)
        if token is None:
            return
        jkt, failure = p.check_proof(self.headers.get("DPoP"), self.command, url, False, token)
        if failure:
            self.proof_failure(401, failure, resource=True)
            return
        if bound != jkt:
            self.proof_failure(401, ("invalid_token", "the token is not bound to the proof's key", False), True)
            return
        answer = self.run_endpoint("userinfo", body if self.command == "POST" else query, url)
        if answer is None:
            return
        response, result, parsed = answer
        self.send(200, response["response"])


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    workdir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), ".work")
    httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    issuer = f"http://127.0.0.1:{httpd.server_address[1]}"
    provider = Provider(issuer, workdir)
    provider.configure_metadata()
    Handler.provider = provider
    print(issuer, flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
