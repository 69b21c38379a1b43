import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// ``FormUserAgent`` against a scripted login site on ``TestHTTPServer`` (no real provider needed).
@Suite("FormUserAgent: cookies, forms, redirects")
struct FormUserAgentTests {
    /// A tiny site: `/start` → 302 relative to `/login?next=...` (sets a CSRF cookie), the login form posts
    /// back (no action) and, with the cookie and the right token, redirects to `/consent`, whose form sends
    /// the browser to `target` (a loopback or custom-scheme callback).
    static func site(target: @escaping @Sendable (String) -> String) throws -> TestHTTPServer {
        try TestHTTPServer { request in
            let cookies = request.header("Cookie") ?? ""
            switch (request.method, request.path) {
            case ("GET", "/start"):
                return .redirect(to: "/login?next=/consent%3Fa%3D1%26b%3D2")
            case ("GET", "/login"):
                return TestResponse(
                    status: 200,
                    headers: [
                        ("Content-Type", "text/html"),
                        (
                            "Set-Cookie",
                            "csrftoken=tok123; expires=Thu, 12 Feb 2099 10:00:00 GMT; Max-Age=31449600; Path=/; SameSite=Lax"
                        ),
                        ("Set-Cookie", "other=gone; Max-Age=0; Path=/"),
                        ("Set-Cookie", "scoped=no; Path=/elsewhere"),
                    ],
                    body: Data(
                        """
                        <!DOCTYPE html><html><body>
                        <!-- <form id="commented"><input name="bad" value="1"></form> -->
                        <script>var s = "<form id='in-script'>";</script>
                        <form id="search" action="/search"><input name="q" value="x"></form>
                        <form id="login-form" method="POST">
                          <input type="hidden" name="csrfmiddlewaretoken" value="tok123">
                          <input type=text name=username>
                          <input type="password" name="password" value="">
                          <input type="hidden" name="next" value="/consent?a=1&amp;b=2&#39;&#x41;">
                          <input type="checkbox" name="remember" value="yes">
                          <input type="checkbox" name="terms" checked>
                          <input type="text" name="locked" value="1" disabled>
                          <textarea name="note">line &amp; more</textarea>
                          <input type="submit" value="Log in">
                          <button type="submit" name="mode" value="fast">Fast</button>
                        </form></body></html>
                        """.utf8))
            case ("POST", "/login"):
                let form = request.formBody
                guard cookies.contains("csrftoken=tok123"), form["csrfmiddlewaretoken"] == "tok123",
                    form["username"] == "ada", form["password"] == "p w&d", request.header("Origin") == nil
                else { return .text("forbidden", status: 403) }
                return TestResponse(
                    status: 302,
                    headers: [("Location", form["next"] ?? "/"), ("Set-Cookie", "sessionid=s1; Path=/; HttpOnly")])
            case ("GET", "/consent"):
                guard cookies.contains("sessionid=s1") else { return .redirect(to: "/login") }
                return TestResponse(
                    status: 200, headers: [("Content-Type", "text/html")],
                    body: Data(
                        #"<form id="authorizationForm" method="post"><input type="hidden" name="state" value="st"></form>"#
                            .utf8))
            case ("POST", "/consent"):
                return .redirect(to: target(request.formBody["allow"] ?? "denied"))
            case ("GET", "/callback"):
                return .text("callback received")
            default:
                return .text("not found", status: 404)
            }
        }
    }

    @Test("forms are read as a browser would: hidden fields, unescaped values, no action = this page")
    func forms() async throws {
        let server = try Self.site { _ in "/" }
        defer { server.stop() }
        let browser = FormUserAgent()
        let page = try await browser.get(server.url("/login?next=x"))
        #expect(page.forms.map(\.id) == ["search", "login-form"])
        let search = try #require(page.form())
        #expect(search.id == "search")
        #expect(search.method == "GET")
        #expect(search.action == server.url("/search"))
        let form = try #require(page.form(id: "login-form"))
        #expect(form.method == "POST")
        #expect(form.action == server.url("/login?next=x"), "no action posts back to the page, query included")
        #expect(form.fields.map(\.name) == ["csrfmiddlewaretoken", "username", "password", "next", "terms", "note"])
        #expect(form["next"] == "/consent?a=1&b=2'A")
        #expect(form["username"] == "")
        #expect(form["terms"] == "on")
        #expect(form["note"] == "line & more")
        #expect(form.submitters.map(\.name) == ["mode"])
        #expect(
            form.values(overriding: [("username", "ada"), ("allow", "Authorize")]).suffix(1).first?.name == "allow")
    }

    @Test("cookies are kept and sent back, redirects followed by hand, no Origin; a custom scheme stops the walk")
    func customSchemeJourney() async throws {
        let server = try Self.site { allow in "dev.latchkey.test://auth-callback?code=c1&state=st&allow=\(allow)" }
        defer { server.stop() }
        let browser = FormUserAgent()
        guard case .page(let login) = try await browser.navigate(server.url("/start")) else {
            Issue.record("expected the login page")
            return
        }
        #expect(login.url == server.url("/login?next=/consent%3Fa%3D1%26b%3D2"))
        #expect(
            browser.cookies(for: server.url("/")).map(\.name) == ["csrftoken"], "Max-Age=0 and other paths left out")
        let form = try #require(login.form(id: "login-form"))
        let afterLogin = try await browser.submit(
            form, overrides: [("username", "ada"), ("password", "p w&d")],
            stoppingAt: URL(string: "dev.latchkey.test://auth-callback"))
        guard case .page(let consent) = afterLogin else {
            Issue.record("expected the consent page, got \(afterLogin)")
            return
        }
        #expect(consent.url == server.url("/consent?a=1&b=2'A"))
        let outcome = try await browser.submit(
            try #require(consent.form(id: "authorizationForm")), overrides: [("allow", "Authorize")],
            stoppingAt: URL(string: "dev.latchkey.test://auth-callback"))
        guard case .callback(let callback) = outcome else {
            Issue.record("expected the callback, got \(outcome)")
            return
        }
        #expect(callback.absoluteString == "dev.latchkey.test://auth-callback?code=c1&state=st&allow=Authorize")

        let requests = server.requests
        #expect(
            requests.map { "\($0.method) \($0.path)" } == [
                "GET /start", "GET /login", "POST /login", "GET /consent", "POST /consent",
            ])
        #expect(requests.allSatisfy { $0.header("Origin") == nil })
        let post = requests[2]
        #expect(post.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(post.formBody["next"] == "/consent?a=1&b=2'A")
        #expect(post.formBody["note"] == "line & more")
        #expect(post.formBody["mode"] == nil, "an unclicked button is not sent")
        #expect(post.bodyText?.contains("password=p+w%26d") == true)
        #expect(requests[3].header("Cookie")?.contains("sessionid=s1") == true)
        #expect(requests[3].header("Cookie")?.contains("csrftoken=tok123") == true)
        #expect(requests[4].formBody == ["state": "st", "allow": "Authorize"])
        #expect(browser.history.count == 5)
    }

    @Test("a loopback callback is requested (delivered) before it is returned")
    func loopbackDelivery() async throws {
        let app = try TestHTTPServer { _ in .text("thanks") }
        defer { app.stop() }
        let callbackBase = app.url("/callback")
        let server = try Self.site { _ in callbackBase.absoluteString + "?code=c2&state=st" }
        defer { server.stop() }
        let browser = FormUserAgent()
        guard case .page(let login) = try await browser.navigate(server.url("/start")),
            case .page(let consent) = try await browser.submit(
                try #require(login.form(id: "login-form")), overrides: [("username", "ada"), ("password", "p w&d")],
                stoppingAt: callbackBase)
        else {
            Issue.record("expected the login and consent pages")
            return
        }
        let outcome = try await browser.submit(try #require(consent.form()), stoppingAt: callbackBase)
        guard case .callback(let callback) = outcome else {
            Issue.record("expected the callback")
            return
        }
        #expect(callback.query == "code=c2&state=st")
        #expect(app.requests.map(\.target) == ["/callback?code=c2&state=st"])
        #expect(app.requests.first?.header("Cookie") == nil, "the provider's cookies are not sent to the app")
    }

    @Test("joined Set-Cookie values split at cookie boundaries, not inside Expires dates")
    func cookieSplitting() async throws {
        let server = try TestHTTPServer { request in
            if request.path == "/set" {
                // One header line carrying two cookies, as some stacks join them.
                return TestResponse(
                    status: 200,
                    headers: [("Set-Cookie", "a=1; expires=Wed, 01 Jan 2098 00:00:00 GMT; Path=/, b=2; Path=/")])
            }
            return .text(request.header("Cookie") ?? "")
        }
        defer { server.stop() }
        let browser = FormUserAgent()
        _ = try await browser.get(server.url("/set"))
        let echoed = try await browser.get(server.url("/echo"))
        #expect(
            echoed.body.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.sorted() == [
                "a=1", "b=2",
            ])
    }
}
