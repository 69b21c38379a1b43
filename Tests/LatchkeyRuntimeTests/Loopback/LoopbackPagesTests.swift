import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// The configurable pages of the loopback server, fetched on the wire from the callback URL.
@Suite("LoopbackPages")
struct LoopbackPagesTests {
    private static let hostile = "%3Cscript%3Ealert(1)%3C%2Fscript%3E%22%27%26%E2%80%AEx"

    /// Fetches `target` from the server and waits for the callback.
    private static func fetch(_ server: LoopbackRedirectServer, _ target: String) async throws
        -> RawHTTPClient.Response
    {
        async let callback = server.waitForCallback()
        let response = try #require(await RawHTTPClient.get(port: server.port, target: target))
        _ = try await callback
        return response
    }

    @Test("the app's HTML success page is served with no-store, no-referrer and nosniff")
    func customSuccess() async throws {
        let html = "<!doctype html><p>Welcome back{{error}}</p>"
        let server = try LoopbackRedirectServer(expectedState: "s", pages: LoopbackPages(success: .html(html)))
        let response = try await Self.fetch(server, "/callback?code=c&state=s")
        #expect(response.status == 200)
        #expect(response.body == "<!doctype html><p>Welcome back</p>")
        #expect(response.head.contains("Content-Type: text/html; charset=utf-8\r\n"))
        #expect(response.head.contains("Cache-Control: no-store\r\n"))
        #expect(response.head.contains("Referrer-Policy: no-referrer\r\n"))
        #expect(response.head.contains("X-Content-Type-Options: nosniff\r\n"))
    }

    @Test("a hostile error_description is escaped on Latchkey's failure page, which allows no script")
    func hostileErrorOnStandardPage() async throws {
        let server = try LoopbackRedirectServer(expectedState: "s")
        let response = try await Self.fetch(
            server, "/callback?error=access_denied&error_description=\(Self.hostile)&state=s")
        #expect(response.status == 200)
        #expect(!response.body.contains("<script"))
        #expect(response.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;x"))
        #expect(!response.body.contains("\u{202E}"), "a bidirectional override is dropped")
        #expect(response.body.contains("<code>access_denied</code>"))
        #expect(response.head.contains("Content-Security-Policy: default-src 'none'"))
    }

    @Test("the app's failure page gets the provider's error escaped in its placeholders, shortened")
    func hostileErrorOnCustomPage() async throws {
        let long = String(repeating: "a", count: 500)
        let pages = LoopbackPages(failure: .html("<p>{{error}}|{{error_description}}</p>"))
        let server = try LoopbackRedirectServer(expectedState: "s", pages: pages)
        let response = try await Self.fetch(
            server, "/callback?error=%3Cb%3E&error_description=\(Self.hostile)\(long)&state=s")
        #expect(!response.body.contains("<b>"))
        #expect(!response.body.contains("<script"))
        #expect(response.body.hasPrefix("<p>&lt;b&gt;|&lt;script&gt;"))
        #expect(response.body.hasSuffix("a…</p>"))
        #expect(response.body.count < 300 + 40)
    }

    @Test("a redirect page answers 303 to the app's page with nothing of the callback")
    func redirectPage() async throws {
        let target = URL(string: "https://app.example/welcome")!
        let server = try LoopbackRedirectServer(expectedState: "s", pages: LoopbackPages(success: .redirect(target)))
        let response = try await Self.fetch(server, "/callback?code=secret-code&state=s")
        #expect(response.status == 303)
        #expect(response.head.contains("Location: https://app.example/welcome\r\n"))
        #expect(response.head.contains("Referrer-Policy: no-referrer\r\n"))
        #expect(response.head.contains("Cache-Control: no-store\r\n"))
        #expect(!response.head.contains("secret-code") && !response.body.contains("secret-code"))
    }

    @Test("a wrong state gets the failure page (400) without the request's error text")
    func stateMismatchPage() async throws {
        let pages = LoopbackPages(failure: .html("<p>no{{error_description}}</p>"))
        let server = try LoopbackRedirectServer(expectedState: "good", pages: pages)
        let refused = try #require(
            await RawHTTPClient.get(port: server.port, target: "/callback?error=x&error_description=hi&state=bad"))
        #expect(refused.status == 400)
        #expect(refused.body == "<p>no</p>")
        server.cancel()
    }

    /// Pages over their limits, or with a bad redirect.
    private static let invalid: [String: LoopbackPages] = [
        "HTML over 64 KiB": LoopbackPages(
            success: .html(String(repeating: "x", count: LoopbackPages.maximumHTMLBytes + 1))),
        "javascript: redirect": LoopbackPages(failure: .redirect(URL(string: "javascript:alert(1)")!)),
        "ftp redirect": LoopbackPages(success: .redirect(URL(string: "ftp://app.example/x")!)),
        "redirect over 2048 bytes": LoopbackPages(
            success: .redirect(URL(string: "https://app.example/" + String(repeating: "y", count: 2100))!)),
        "title over 4 KiB": LoopbackPages(signedOut: .message(title: String(repeating: "t", count: 5000), message: "")),
    ]

    @Test(
        "pages over their limits or bad redirects are invalid_configuration before anything listens",
        arguments: invalid.keys.sorted())
    func invalidPages(name: String) throws {
        let pages = try #require(Self.invalid[name])
        #expect(throws: AuthError.self) { try pages.validate() }
        if pages.signedOut == .signedOut {
            let error = #expect(throws: AuthError.self) {
                _ = try LoopbackRedirectServer(expectedState: "s", pages: pages)
            }
            #expect(error?.code == .invalidConfiguration)
        }
    }

    @Test("AuthClientOptions.loopbackPages reaches signInWithLoopback's browser")
    func throughTheClient() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        var options = AcmeHarness.options(
            harness.transport, InMemorySessionStore(), harness.clock, harness.logs, leeway: .seconds(60),
            random: SystemRandomSource())
        options.loopbackPages = LoopbackPages(success: .html("<p>Back to the terminal</p>"))
        let client = try AuthClient(
            provider: harness.spec,
            configuration: AcmeHarness.configuration(harness.server, values: [:], redirectURI: nil), options: options)
        let answer = Locked<TransportResponse?>(nil)
        let transport = harness.transport
        _ = try await client.signInWithLoopback(
            open: { url throws(AuthError) in
                let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
                let value = { (name: String) in items.first { $0.name == name }?.value ?? "" }
                let callback = URL(string: "\(value("redirect_uri"))?code=good-code&state=\(value("state"))")!
                let response = try await transport.send(TransportRequest(method: "GET", url: callback))
                answer.withLock { $0 = response }
            }, timeout: .seconds(60))
        let response = try #require(answer.withLock { $0 })
        #expect(String(decoding: response.body, as: UTF8.self) == "<p>Back to the terminal</p>")
        #expect(response.headerFields["Referrer-Policy"] == "no-referrer")
    }

    @Test("pages over their limits fail the loopback sign-in before the browser opens or a request is sent")
    func invalidThroughTheClient() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        var options = AcmeHarness.options(
            harness.transport, InMemorySessionStore(), harness.clock, harness.logs, leeway: .seconds(60),
            random: SystemRandomSource())
        options.loopbackPages = LoopbackPages(success: .redirect(URL(string: "javascript:alert(1)")!))
        let client = try AuthClient(
            provider: harness.spec,
            configuration: AcmeHarness.configuration(harness.server, values: [:], redirectURI: nil), options: options)
        await expectAuthError(.invalidConfiguration) {
            try await client.signInWithLoopback(open: { _ throws(AuthError) in Issue.record("no browser") })
        }
        #expect(harness.server.requests.isEmpty)
    }
}
