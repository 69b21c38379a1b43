#!/usr/bin/env python3
"""End-to-end smoke test of the CI OpenID Connect provider.

Drives every flow the way Latchkey's headless Swift agent must (see README.md,
"Headless browser agent"): plain HTTP, a cookie jar, redirects followed by hand.
Uses only `requests` and the standard library (run it with ci-oidc/.venv/bin/python).

Usage: ci-oidc/.venv/bin/python ci-oidc/smoke.py [ISSUER]   (default http://127.0.0.1:9400/o)
Exit status 0 when every check passed; the last line reads "smoke: N passed, N failed".
"""

import base64
import hashlib
import html.parser
import json
import secrets
import sys
import time
import traceback
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

import requests

ISSUER = (sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:9400/o").rstrip("/")
ORIGIN = "{0.scheme}://{0.netloc}".format(urlsplit(ISSUER))
USERNAME, PASSWORD = "ada", "latchkey-test-password"
PUBLIC, CONFIDENTIAL, DEVICE = "latchkey-public", "latchkey-confidential", "latchkey-device"
CONFIDENTIAL_SECRET = "latchkey-confidential-secret"
# RFC 8252 loopback redirect: registered as http://127.0.0.1/callback, any port is accepted.
REDIRECT = "http://127.0.0.1:53682/callback"
TIMEOUT = 15

passed = failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"  ok   {name}")
    else:
        failed += 1
        print(f"  FAIL {name} {detail}")
    return cond


# --------------------------------------------------------------------------- helpers


class FormParser(html.parser.HTMLParser):
    """Collects every <form>: its action, and the name/value of its inputs."""

    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"id": a.get("id"), "action": a.get("action"), "fields": {}, "submits": []})
        elif tag in ("input", "button") and self.forms:
            name = a.get("name")
            if a.get("type") == "submit" or tag == "button":
                self.forms[-1]["submits"].append((name, a.get("value")))
            elif name:
                self.forms[-1]["fields"][name] = a.get("value", "")


def parse_form(html_text):
    p = FormParser()
    p.feed(html_text)
    assert p.forms, "no <form> in page:\n" + html_text[:2000]
    return p.forms[0]


def form_target(resp, form):
    # No action attribute => the browser posts back to the page's own URL (query included).
    return urljoin(resp.url, form["action"]) if form["action"] else resp.url


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(s: str) -> bytes:
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def pkce_pair():
    verifier = b64url(secrets.token_bytes(48))
    challenge = b64url(hashlib.sha256(verifier.encode()).digest())
    return verifier, challenge


def verify_rs256(jwt: str, jwks: dict) -> dict:
    """Verify an RS256 JWT against the JWKS with plain integer RSA (no crypto libs)."""
    h64, p64, s64 = jwt.split(".")
    header = json.loads(b64url_decode(h64))
    assert header["alg"] == "RS256", header
    key = next(k for k in jwks["keys"] if k.get("kid") == header.get("kid"))
    n = int.from_bytes(b64url_decode(key["n"]), "big")
    e = int.from_bytes(b64url_decode(key["e"]), "big")
    k = (n.bit_length() + 7) // 8
    em = pow(int.from_bytes(b64url_decode(s64), "big"), e, n).to_bytes(k, "big")
    digest_info = bytes.fromhex("3031300d060960864801650304020105000420")
    digest = hashlib.sha256(f"{h64}.{p64}".encode()).digest()
    expected = b"\x00\x01" + b"\xff" * (k - 3 - len(digest_info) - len(digest)) + b"\x00" + digest_info + digest
    assert em == expected, "bad RS256 signature"
    return json.loads(b64url_decode(p64))


class Agent:
    """A headless 'browser': cookie jar + manual redirects, exactly what the Swift agent does."""

    def __init__(self):
        self.s = requests.Session()

    def get(self, url, **kw):
        return self.s.get(url, allow_redirects=False, timeout=TIMEOUT, **kw)

    def post(self, url, data, **kw):
        return self.s.post(url, data=data, allow_redirects=False, timeout=TIMEOUT, **kw)

    def login_if_asked(self, resp):
        """If resp redirects to /accounts/login/, fill in and post the login form.
        Returns the response of the page we were sent back to (via `next`)."""
        loc = resp.headers.get("Location", "")
        if resp.status_code != 302 or not urlsplit(urljoin(resp.url, loc)).path == "/accounts/login/":
            return resp
        login_page = self.get(urljoin(resp.url, loc))
        assert login_page.status_code == 200, login_page.status_code
        form = parse_form(login_page.text)
        assert set(form["fields"]) >= {"csrfmiddlewaretoken", "username", "password", "next"}, form
        fields = dict(form["fields"], username=USERNAME, password=PASSWORD)
        done = self.post(form_target(login_page, form), fields)
        assert done.status_code == 302, f"login POST -> {done.status_code}: {done.text[:500]}"
        back = urljoin(done.url, done.headers["Location"])
        assert back == urljoin(login_page.url, fields["next"]), (back, fields["next"])
        return self.get(back)

    def authorize(self, params, decision="allow"):
        """Full browser leg of the authorization code flow. Returns the final redirect URL."""
        r = self.get(f"{ISSUER}/authorize/", params=params)
        r = self.login_if_asked(r)
        if r.status_code == 302:  # error redirect, or skip_authorization
            return r.headers["Location"]
        assert r.status_code == 200, f"consent page -> {r.status_code}: {r.text[:500]}"
        form = parse_form(r.text)
        assert form["id"] == "authorizationForm", form
        fields = dict(form["fields"])
        if decision == "allow":
            fields["allow"] = "Authorize"  # the submit button named "allow"
        done = self.post(form_target(r, form), fields)
        assert done.status_code == 302, f"consent POST -> {done.status_code}: {done.text[:500]}"
        return done.headers["Location"]


def qs(url):
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def token(data, auth=None):
    return requests.post(f"{ISSUER}/token/", data=data, auth=auth, timeout=TIMEOUT, allow_redirects=False)


def auth_params(challenge, state, nonce, redirect=REDIRECT, scope="openid profile email"):
    return {
        "response_type": "code",
        "client_id": PUBLIC,
        "redirect_uri": redirect,
        "scope": scope,
        "state": state,
        "nonce": nonce,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
    }


# --------------------------------------------------------------------------- flows


def t_discovery(ctx):
    r = requests.get(f"{ISSUER}/.well-known/openid-configuration", timeout=TIMEOUT)
    check("discovery 200", r.status_code == 200, r.status_code)
    d = r.json()
    ctx["disc"] = d
    check("issuer exact", d["issuer"] == ISSUER, d["issuer"])
    for key, path in [
        ("authorization_endpoint", "/authorize/"),
        ("token_endpoint", "/token/"),
        ("userinfo_endpoint", "/userinfo/"),
        ("jwks_uri", "/.well-known/jwks.json"),
        ("end_session_endpoint", "/logout/"),
    ]:
        check(f"discovery {key}", d.get(key) == ISSUER + path, d.get(key))
    check("discovery S256 only", d["code_challenge_methods_supported"] == ["S256"])
    check("discovery has no revocation/device endpoint (documented quirk)",
          "revocation_endpoint" not in d and "device_authorization_endpoint" not in d)
    m = requests.get(f"{ORIGIN}/.well-known/oauth-authorization-server/o", timeout=TIMEOUT)
    check("RFC 8414 metadata lists revocation endpoint",
          m.status_code == 200 and m.json().get("revocation_endpoint") == ISSUER + "/revoke_token/")
    j = requests.get(d["jwks_uri"], timeout=TIMEOUT).json()
    ctx["jwks"] = j
    check("jwks has an RSA key", any(k["kty"] == "RSA" and k.get("kid") for k in j["keys"]), j)


def t_trailing_slash(ctx):
    r = requests.post(f"{ISSUER}/token", data={"grant_type": "client_credentials"}, allow_redirects=False,
                      timeout=TIMEOUT)
    check("POST /o/token without slash -> 301 (body would be lost)", r.status_code == 301,
          r.status_code)


def t_auth_code(ctx):
    agent = Agent()
    ctx["agent"] = agent
    verifier, challenge = pkce_pair()
    state, nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    loc = agent.authorize(auth_params(challenge, state, nonce))
    check("redirect goes to the loopback redirect_uri (any port)", loc.startswith(REDIRECT + "?"), loc)
    q = qs(loc)
    check("redirect carries code", "code" in q, loc)
    check("redirect echoes state", q.get("state") == state, loc)
    check("redirect carries iss (RFC 9207)", q.get("iss") == ISSUER, loc)

    bad = token({"grant_type": "authorization_code", "code": q["code"], "redirect_uri": REDIRECT,
                 "client_id": PUBLIC, "code_verifier": pkce_pair()[0]})
    check("wrong code_verifier -> invalid_grant", bad.status_code == 400 and bad.json()["error"] == "invalid_grant",
          bad.text)
    # A failed verifier does not burn the code in DOT: do a fresh authorization anyway.
    verifier, challenge = pkce_pair()
    loc = agent.authorize(auth_params(challenge, state, nonce))
    check("second authorize with a live session skips login, shows consent again", "code=" in loc, loc)
    code = qs(loc)["code"]
    r = token({"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
               "client_id": PUBLIC, "code_verifier": verifier})
    check("token exchange 200", r.status_code == 200, r.text)
    t = r.json()
    ctx["tokens"] = t
    check("token response fields",
          {"access_token", "refresh_token", "id_token", "expires_in", "scope"} <= set(t)
          and t["token_type"] == "Bearer", t)
    check("token scope", set(t["scope"].split()) == {"openid", "profile", "email"}, t.get("scope"))
    claims = verify_rs256(t["id_token"], ctx["jwks"])
    ctx["id_token"] = t["id_token"]
    check("id_token RS256 signature valid", True)
    check("id_token iss/aud/nonce", claims["iss"] == ISSUER and claims["aud"] == PUBLIC and claims["nonce"] == nonce,
          claims)
    check("id_token name/email", claims.get("name") == "Ada Lovelace" and claims.get("email") == "ada@example.com",
          claims)
    ctx["sub"] = claims["sub"]

    replay = token({"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
                    "client_id": PUBLIC, "code_verifier": verifier})
    check("code replay -> invalid_grant", replay.status_code == 400 and replay.json()["error"] == "invalid_grant",
          replay.text)


def t_auth_code_variants(ctx):
    agent = ctx["agent"]
    # Custom scheme redirect.
    verifier, challenge = pkce_pair()
    loc = agent.authorize(auth_params(challenge, "s1", "n1", redirect="dev.latchkey.test://auth-callback"))
    check("custom-scheme redirect dev.latchkey.test://auth-callback", loc.startswith(
        "dev.latchkey.test://auth-callback?") and "code=" in loc, loc)
    # Deny.
    loc = agent.authorize(auth_params(pkce_pair()[1], "s2", "n2"), decision="deny")
    check("consent denied -> error=access_denied", qs(loc).get("error") == "access_denied"
          and qs(loc).get("state") == "s2", loc)
    # No PKCE for the public client.
    p = auth_params("x", "s3", "n3")
    del p["code_challenge"], p["code_challenge_method"]
    r = agent.get(f"{ISSUER}/authorize/", params=p)
    loc = r.headers.get("Location", "")
    check("public client without PKCE -> error=invalid_request", r.status_code == 302
          and qs(loc).get("error") == "invalid_request", (r.status_code, loc))
    # "plain" PKCE: the consent page is still shown; the consent POST redirects with the error.
    p = auth_params("x" * 43, "s4", "n4")
    p["code_challenge_method"] = "plain"
    loc = agent.authorize(p)
    check("code_challenge_method=plain -> error=invalid_request after consent", qs(loc).get("error") ==
          "invalid_request" and "code" not in qs(loc), loc)
    # Unregistered redirect: localhost (not a loopback IP literal) is not accepted.
    r = agent.get(f"{ISSUER}/authorize/", params=auth_params(pkce_pair()[1], "s5", "n5",
                                                               redirect="http://localhost:53682/callback"))
    check("http://localhost redirect rejected (400 page, no redirect)", r.status_code == 400, r.status_code)
    # prompt=none with a live session and earlier consent (tokens from t_auth_code): silent code.
    verifier, challenge = pkce_pair()
    p = auth_params(challenge, "s6", "n6")
    p["prompt"] = "none"
    r = agent.get(f"{ISSUER}/authorize/", params=p)
    loc = r.headers.get("Location", "")
    check("prompt=none, logged in + consented -> 302 with code (no page)", r.status_code == 302
          and "code" in qs(loc) and qs(loc).get("state") == "s6", (r.status_code, loc, r.text[:200]))
    if "code" in qs(loc):
        t = token({"grant_type": "authorization_code", "code": qs(loc)["code"], "redirect_uri": REDIRECT,
                   "client_id": PUBLIC, "code_verifier": verifier})
        check("silent code exchanges for tokens", t.status_code == 200 and "id_token" in t.json(), t.text)
    # prompt=none without session -> login_required.
    r = Agent().get(f"{ISSUER}/authorize/", params=p)
    loc = r.headers.get("Location", "")
    check("prompt=none without session -> error=login_required", r.status_code == 302
          and qs(loc).get("error") == "login_required" and qs(loc).get("state") == "s6", (r.status_code, loc))
    # prompt=login with a live session: sent to the login form again, then consent.
    p = auth_params(pkce_pair()[1], "s7", "n7")
    p["prompt"] = "login"
    r = agent.get(f"{ISSUER}/authorize/", params=p)
    nxt = qs(urljoin(r.url, r.headers.get("Location", ""))).get("next", "")
    check("prompt=login -> login page, next= without prompt", r.status_code == 302
          and r.headers["Location"].startswith("/accounts/login/") and "prompt" not in nxt, r.headers.get("Location"))


def t_userinfo(ctx):
    at = ctx["tokens"]["access_token"]
    r = requests.get(f"{ISSUER}/userinfo/", headers={"Authorization": f"Bearer {at}"}, timeout=TIMEOUT)
    check("userinfo 200", r.status_code == 200, r.text)
    u = r.json()
    check("userinfo sub/name/email", u.get("sub") == ctx["sub"] and u.get("name") == "Ada Lovelace"
          and u.get("email") == "ada@example.com", u)
    r = requests.get(f"{ISSUER}/userinfo/", headers={"Authorization": "Bearer nope"}, timeout=TIMEOUT)
    check("userinfo with bad token -> 401", r.status_code == 401, r.status_code)


def t_refresh(ctx):
    t = ctx["tokens"]
    r1 = token({"grant_type": "refresh_token", "refresh_token": t["refresh_token"], "client_id": PUBLIC})
    check("refresh 200", r1.status_code == 200, r1.text)
    n = r1.json()
    check("refresh rotates the refresh token", n["refresh_token"] != t["refresh_token"])
    check("refresh returns new access + id token", n["access_token"] != t["access_token"] and "id_token" in n)
    old = token({"grant_type": "refresh_token", "refresh_token": t["refresh_token"], "client_id": PUBLIC})
    check("replayed old refresh token -> invalid_grant", old.status_code == 400
          and old.json()["error"] == "invalid_grant", old.text)
    fam = token({"grant_type": "refresh_token", "refresh_token": n["refresh_token"], "client_id": PUBLIC})
    check("reuse protection: the newest refresh token of the family is revoked too", fam.status_code == 400
          and fam.json()["error"] == "invalid_grant", fam.text)


def fresh_tokens(agent, scope="openid profile email"):
    verifier, challenge = pkce_pair()
    loc = agent.authorize(auth_params(challenge, "st", "no", scope=scope))
    r = token({"grant_type": "authorization_code", "code": qs(loc)["code"], "redirect_uri": REDIRECT,
               "client_id": PUBLIC, "code_verifier": verifier})
    assert r.status_code == 200, r.text
    return r.json()


def t_revoke(ctx):
    t = fresh_tokens(ctx["agent"])
    r = requests.post(f"{ISSUER}/revoke_token/", data={"token": t["access_token"], "token_type_hint": "access_token",
                                                       "client_id": PUBLIC}, timeout=TIMEOUT)
    check("revoke access token 200", r.status_code == 200, (r.status_code, r.text))
    u = requests.get(f"{ISSUER}/userinfo/", headers={"Authorization": f"Bearer {t['access_token']}"}, timeout=TIMEOUT)
    check("revoked access token -> userinfo 401", u.status_code == 401, u.status_code)
    r = requests.post(f"{ISSUER}/revoke_token/", data={"token": t["refresh_token"], "token_type_hint": "refresh_token",
                                                       "client_id": PUBLIC}, timeout=TIMEOUT)
    check("revoke refresh token 200", r.status_code == 200, (r.status_code, r.text))
    x = token({"grant_type": "refresh_token", "refresh_token": t["refresh_token"], "client_id": PUBLIC})
    check("revoked refresh token -> invalid_grant", x.status_code == 400 and x.json()["error"] == "invalid_grant",
          x.text)
    r = requests.post(f"{ISSUER}/revoke_token/", data={"token": "unknown", "client_id": PUBLIC}, timeout=TIMEOUT)
    check("revoke unknown token -> 200 (RFC 7009)", r.status_code == 200, r.status_code)


def t_client_credentials(ctx):
    r = token({"grant_type": "client_credentials"}, auth=(CONFIDENTIAL, CONFIDENTIAL_SECRET))
    check("client_credentials (basic auth) 200", r.status_code == 200, r.text)
    t = r.json()
    check("client_credentials: no refresh/id token", "refresh_token" not in t and "id_token" not in t, t)
    r = token({"grant_type": "client_credentials", "client_id": CONFIDENTIAL, "client_secret": CONFIDENTIAL_SECRET})
    check("client_credentials (client_secret_post) 200", r.status_code == 200, r.text)
    r = token({"grant_type": "client_credentials"}, auth=(CONFIDENTIAL, "wrong"))
    check("client_credentials wrong secret -> 401 invalid_client", r.status_code == 401
          and r.json()["error"] == "invalid_client", (r.status_code, r.text))
    i = requests.post(f"{ISSUER}/introspect/", data={"token": t["access_token"]}, auth=(CONFIDENTIAL, CONFIDENTIAL_SECRET),
                      timeout=TIMEOUT)
    check("introspect (confidential client basic auth) active", i.status_code == 200 and i.json().get("active") is True,
          (i.status_code, i.text))


def device_start(scope="openid profile email"):
    r = requests.post(f"{ISSUER}/device-authorization/", data={"client_id": DEVICE, "scope": scope}, timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    return r.json()


def device_poll(d):
    return token({"grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": d["device_code"],
                  "client_id": DEVICE})


def device_user_approves(agent, d, action="accept"):
    """The user's browser leg: verification_uri_complete -> login -> code form -> accept/deny."""
    r = agent.login_if_asked(agent.get(d["verification_uri_complete"]))
    assert r.status_code == 200, r.status_code
    form = parse_form(r.text)
    check("device code form has csrfmiddlewaretoken + user_code prefilled",
          form["fields"].get("user_code") == d["user_code"] and "csrfmiddlewaretoken" in form["fields"], form)
    r2 = agent.post(form_target(r, form), form["fields"])
    assert r2.status_code == 302, (r2.status_code, r2.text[:500])
    confirm_url = urljoin(r2.url, r2.headers["Location"])
    check("user code accepted -> redirect to /o/device-confirm/<client_id>/<user_code>",
          urlsplit(confirm_url).path == f"/o/device-confirm/{DEVICE}/{d['user_code']}", confirm_url)
    r3 = agent.get(confirm_url)
    assert r3.status_code == 200, r3.status_code
    form = parse_form(r3.text)
    check("confirm form has action buttons accept/deny",
          ("action", "accept") in form["submits"] and ("action", "deny") in form["submits"], form)
    r4 = agent.post(form_target(r3, form), dict(form["fields"], action=action))
    assert r4.status_code == 302, (r4.status_code, r4.text[:500])
    status_page = agent.get(urljoin(r4.url, r4.headers["Location"]))
    return status_page


def t_device(ctx):
    d = device_start()
    check("device authorization response fields",
          {"device_code", "user_code", "verification_uri", "verification_uri_complete", "expires_in", "interval"}
          <= set(d), d)
    check("verification_uri", d["verification_uri"] == ISSUER + "/device/", d["verification_uri"])
    p = device_poll(d)
    check("poll before approval -> 400 authorization_pending", p.status_code == 400
          and p.json()["error"] == "authorization_pending", p.text)
    agent = Agent()  # a different browser: must log in
    status = device_user_approves(agent, d)
    check("device grant status page says Authorized", status.status_code == 200 and "Authorized" in status.text,
          status.text[:300])
    time.sleep(d["interval"])
    p = device_poll(d)
    check("poll after approval -> 200 tokens", p.status_code == 200 and "access_token" in p.json(), p.text)
    t = p.json()
    check("device token has refresh_token, no id_token (DOT device grant is plain OAuth)",
          "refresh_token" in t and "id_token" not in t, t)
    if "id_token" in t:
        c = verify_rs256(t["id_token"], ctx["jwks"])
        check("device id_token aud/iss", c["aud"] == DEVICE and c["iss"] == ISSUER, c)
    u = requests.get(f"{ISSUER}/userinfo/", headers={"Authorization": f"Bearer {t['access_token']}"}, timeout=TIMEOUT)
    check("device access token -> userinfo", u.status_code == 200 and u.json().get("email") == "ada@example.com",
          u.text)
    if "refresh_token" in t:
        r = token({"grant_type": "refresh_token", "refresh_token": t["refresh_token"], "client_id": DEVICE})
        check("device client can refresh", r.status_code == 200, r.text)
    # Deny path, same (now logged-in) browser.
    d2 = device_start()
    device_user_approves(agent, d2, action="deny")
    p = device_poll(d2)
    check("denied device grant -> 400 access_denied", p.status_code == 400 and p.json()["error"] == "access_denied",
          p.text)
    p = token({"grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": "nope",
               "client_id": DEVICE})
    check("unknown device_code -> 404 device_not_found (quirk)", p.status_code == 404, (p.status_code, p.text))


def t_logout(ctx):
    agent = ctx["agent"]
    check("session is logged in before logout", "ada" in agent.get(f"{ORIGIN}/").text)
    r = agent.get(f"{ISSUER}/logout/", params={"id_token_hint": ctx["id_token"], "client_id": PUBLIC,
                                              "post_logout_redirect_uri": "http://127.0.0.1:53682/logout-callback",
                                              "state": "bye"})
    check("RP-initiated logout with id_token_hint -> 302 to post_logout_redirect_uri?state=",
          r.status_code == 302 and r.headers["Location"] == "http://127.0.0.1:53682/logout-callback?state=bye",
          (r.status_code, r.headers.get("Location"), r.text[:300]))
    check("session ended", "anonymous" in agent.get(f"{ORIGIN}/").text)
    # Without id_token_hint the OP asks for confirmation (form with allow=Logout).
    a2 = Agent()
    a2.authorize(auth_params(pkce_pair()[1], "x", "y"), decision="deny")  # just to log in
    # The logout above deleted ada's tokens for the public client: no consent on record.
    p = auth_params(pkce_pair()[1], "s8", "n8")
    p["prompt"] = "none"
    r = a2.get(f"{ISSUER}/authorize/", params=p)
    loc = r.headers.get("Location", "")
    check("prompt=none, logged in, no consent on record -> error=consent_required", r.status_code == 302
          and qs(loc).get("error") == "consent_required" and qs(loc).get("state") == "s8", (r.status_code, loc))
    r = a2.get(f"{ISSUER}/logout/", params={"client_id": PUBLIC,
                                            "post_logout_redirect_uri": "dev.latchkey.test://logout-callback"})
    ok = r.status_code == 200
    if ok:
        form = parse_form(r.text)
        r2 = a2.post(form_target(r, form), dict(form["fields"], allow="Logout"))
        ok = r2.status_code == 302 and r2.headers["Location"] == "dev.latchkey.test://logout-callback"
    check("logout without hint: confirm form, POST allow=Logout -> 302", ok, (r.status_code, r.text[:300]))


def main():
    print(f"smoke: issuer {ISSUER}")
    ctx = {}
    t0 = time.time()
    for t in [t_discovery, t_trailing_slash, t_auth_code, t_auth_code_variants, t_userinfo, t_refresh, t_revoke,
              t_client_credentials, t_device, t_logout]:
        print(f"- {t.__name__[2:]}")
        try:
            t(ctx)
        except Exception:
            check(f"{t.__name__} raised", False, "\n" + traceback.format_exc())
    print(f"smoke: {time.time() - t0:.1f}s")
    print(f"smoke: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
