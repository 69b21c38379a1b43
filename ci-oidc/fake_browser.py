#!/usr/bin/env python3
"""A headless stand-in for the user's browser, for `latchkey-demo` against the ci-oidc provider.

Two modes (run with ci-oidc/.venv/bin/python; only `requests` + the standard library):

  fake_browser.py URL-OR-PAGE
      What `xdg-open URL` does for the demo's browser sign-in (given the path of a local page, as
      Latchkey's SystemBrowser passes, it reads the page and follows its meta refresh): put a two-line wrapper named
      `xdg-open` first on PATH (`exec .../python .../fake_browser.py "$@"`). Like a real
      xdg-open it returns at once (exit 0) and the "browser" works in a detached process:
      GET URL, log in as ada, approve the consent page, and deliver the final redirect
      (`http://127.0.0.1:PORT/callback?code=...`) to the demo's loopback server with a GET.
      An error redirect to the loopback address (`?error=...`) is delivered as well, as a real
      browser would; an error *page* (an unknown client, an unregistered redirect URI: DOT
      answers 400 HTML) stops there, as a user would, and nothing reaches the demo.

  fake_browser.py --device --watch FILE [--timeout SECONDS]
      The user of the device flow: waits until FILE (the demo's stdout) names the
      verification address and the user code ("To sign in, open URL" / "and enter the code
      CODE"), then opens URL?user_code=CODE, logs in as ada, submits the code and accepts.
      Exit 0 once DOT shows "Device Authorized"; 1 on any failure or timeout (default 60 s).

Environment: LATCHKEY_FAKE_BROWSER_LOG (a file to append progress and failures to; the
browser mode's detached worker otherwise has no output), LATCHKEY_FAKE_BROWSER_DECISION
(`allow`, the default, or `deny`: press Cancel / Deny instead).
Never prints tokens or codes other than the user code it was given.
"""

import html
import html.parser
import os
import re
import subprocess
import sys
import time
import traceback
from urllib.parse import urljoin, urlsplit

import requests

USERNAME, PASSWORD = "ada", "latchkey-test-password"
TIMEOUT = 15
LOG = os.environ.get("LATCHKEY_FAKE_BROWSER_LOG")
DECISION = os.environ.get("LATCHKEY_FAKE_BROWSER_DECISION", "allow")


def log(message):
    line = f"fake_browser[{os.getpid()}]: {message}\n"
    if LOG:
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(line)
    else:
        sys.stderr.write(line)


class Failure(Exception):
    pass


class FormParser(html.parser.HTMLParser):
    """Collects every <form>: id, action, named inputs (values unescaped) and submit buttons."""

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
                self.forms[-1]["fields"][name] = a.get("value") or ""


def first_form(resp):
    parser = FormParser()
    parser.feed(resp.text)
    if not parser.forms:
        raise Failure(f"no form at {without_query(resp.url)} (status {resp.status_code})")
    return parser.forms[0]


def form_target(resp, form):
    # No action: the form posts back to the page's own URL, query included.
    return urljoin(resp.url, form["action"]) if form["action"] else resp.url


def without_query(url):
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"


def is_loopback(url):
    parts = urlsplit(url)
    return parts.scheme == "http" and parts.hostname in ("127.0.0.1", "::1")


class Browser:
    """One cookie jar; redirects followed by hand (the last one may go to the loopback server)."""

    def __init__(self):
        self.session = requests.Session()

    def get(self, url):
        return self.session.get(url, allow_redirects=False, timeout=TIMEOUT)

    def post(self, url, data):
        return self.session.post(url, data=data, allow_redirects=False, timeout=TIMEOUT)

    @staticmethod
    def location(resp):
        return urljoin(resp.url, resp.headers["Location"])

    def login_if_asked(self, resp):
        """Fills in the login form when sent there; returns the page the login leads back to."""
        if resp.status_code != 302 or urlsplit(self.location(resp)).path != "/accounts/login/":
            return resp
        page = self.get(self.location(resp))
        form = first_form(page)
        done = self.post(form_target(page, form), dict(form["fields"], username=USERNAME, password=PASSWORD))
        if done.status_code != 302:
            raise Failure(f"login as {USERNAME} answered {done.status_code} (wrong password?)")
        log(f"logged in as {USERNAME}")
        return self.get(self.location(done))


def follow_page(target):
    """What a browser does with a local page: Latchkey's SystemBrowser hands over the path of a private HTML page
    (never the authorization URL itself, which a command line would show to every local user) whose meta refresh
    names the URL. A URL is returned as it is."""
    path = target[len("file://"):] if target.startswith("file://") else target
    if not path.startswith("/"):
        return target
    with open(path, encoding="utf-8") as f:
        page = f.read()
    match = re.search(r'<meta http-equiv="refresh" content="0;url=([^"]*)">', page)
    if not match:
        raise Failure(f"the page {path} names no URL to go to")
    log("read the sign-in page (a local file)")
    return html.unescape(match.group(1))


def browse(url):
    """The browser sign-in: login, consent, then the redirect to the demo's loopback server."""
    url = follow_page(url)
    browser = Browser()
    log(f"opening {without_query(url)}")
    page = browser.login_if_asked(browser.get(url))
    if page.status_code == 200:
        form = first_form(page)
        if form["id"] != "authorizationForm":
            raise Failure(f"expected the consent page, got a form {form['id']!r} at {without_query(page.url)}")
        fields = dict(form["fields"])
        if DECISION == "allow":
            fields["allow"] = "Authorize"
        log(f"consent: {DECISION}")
        page = browser.post(form_target(page, form), fields)
    if page.status_code != 302:
        # What a user would see: DOT's error page for an unknown client or redirect URI. Nothing to deliver.
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.text)).strip()
        raise Failure(f"the provider showed a page ({page.status_code}) instead of redirecting: {text[:300]}")
    target = browser.location(page)
    if not is_loopback(target):
        raise Failure(f"the provider redirected to {without_query(target)}, not to a loopback address")
    delivered = requests.get(target, allow_redirects=False, timeout=TIMEOUT)
    log(f"delivered the redirect to {without_query(target)}: {delivered.status_code}")
    if delivered.status_code >= 400:
        raise Failure(f"the loopback server answered {delivered.status_code}")


def read_verification(path, deadline):
    """Waits until the demo's output names the verification URI and the user code."""
    while time.monotonic() < deadline:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except FileNotFoundError:
            text = ""
        uri = re.search(r"To sign in, open (\S+)", text)
        code = re.search(r"and enter the code (\S+)", text)
        if uri and code:
            return uri.group(1), code.group(1)
        time.sleep(0.1)
    raise Failure(f"no verification address and user code in {path} in time")


def approve_device(verification_uri, user_code):
    """The user's leg of the device flow: the code form, then accept (or deny) on the confirm page."""
    browser = Browser()
    separator = "&" if urlsplit(verification_uri).query else "?"
    log(f"opening {verification_uri} with the user code {user_code}")
    page = browser.login_if_asked(browser.get(f"{verification_uri}{separator}user_code={user_code}"))
    if page.status_code != 200:
        raise Failure(f"the verification page answered {page.status_code}")
    form = first_form(page)
    fields = dict(form["fields"])
    fields["user_code"] = fields.get("user_code") or user_code
    confirm = browser.post(form_target(page, form), fields)
    if confirm.status_code != 302:
        raise Failure(f"the user code {user_code} was not accepted ({confirm.status_code})")
    page = browser.get(browser.location(confirm))
    form = first_form(page)
    action = "accept" if DECISION == "allow" else "deny"
    done = browser.post(form_target(page, form), dict(form["fields"], action=action))
    if done.status_code != 302:
        raise Failure(f"the confirm page answered {done.status_code}")
    status = browser.get(browser.location(done))
    expected = "Authorized" if action == "accept" else "Denied"
    if status.status_code != 200 or expected not in status.text:
        raise Failure(f"the grant status page does not say {expected} ({status.status_code})")
    log(f"device code {user_code}: {expected}")


def run(work, *args):
    try:
        work(*args)
        return 0
    except Exception as error:  # noqa: BLE001 - every failure is reported, with its cause
        log(f"FAILED: {error}")
        if not isinstance(error, Failure):
            log(traceback.format_exc())
        return 1


def main(argv):
    if argv[:1] == ["--device"]:
        args = dict(zip(argv[1::2], argv[2::2]))
        if "--watch" not in args:
            sys.stderr.write("usage: fake_browser.py --device --watch FILE [--timeout SECONDS]\n")
            return 2
        deadline = time.monotonic() + float(args.get("--timeout", "60"))

        def device():
            approve_device(*read_verification(args["--watch"], deadline))

        return run(device)
    if argv[:1] == ["--worker"] and len(argv) == 2:
        return run(browse, argv[1])
    if len(argv) != 1 or argv[0].startswith("--"):
        sys.stderr.write("usage: fake_browser.py URL | fake_browser.py --device --watch FILE\n")
        return 2
    # Like xdg-open: hand the URL to a detached "browser" and return at once.
    subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "--worker", argv[0]],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL if LOG else None,  # without a log file, failures go to the caller's stderr
        start_new_session=True, close_fds=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
