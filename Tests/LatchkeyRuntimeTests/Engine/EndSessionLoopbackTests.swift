import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// A browser for loopback logouts: requests the end-session URL, follows the provider's redirect to the
/// loopback server by hand, and keeps what the loopback server answered.
private final class LogoutBrowser: Sendable {
    private let transport = URLSessionHTTPTransport()
    private let pages = Locked<[TransportResponse]>([])
    /// Whether the local session was already gone when the browser opened.
    let sessionGoneWhenOpened = Locked<Bool?>(nil)

    /// The loopback server's answers, in order.
    var loopbackAnswers: [TransportResponse] { pages.withLock { $0 } }

    /// Opens the end-session URL and follows its redirect to the loopback callback.
    /// - Returns: The provider's redirect target.
    @discardableResult
    func visit(_ url: URL) async throws(AuthError) -> URL {
        let logout = try await transport.send(TransportRequest(method: "GET", url: url))
        guard logout.status == 302, let location = logout.headerFields["Location"], let target = URL(string: location)
        else { throw AuthError(.webAuthStartFailed, "the end-session endpoint did not redirect") }
        try await request(target)
        return target
    }

    /// Requests a loopback URL and keeps the answer.
    func request(_ url: URL) async throws(AuthError) {
        let answer = try await transport.send(TransportRequest(method: "GET", url: url))
        pages.withLock { $0.append(answer) }
    }
}

@Suite("Engine: RP-initiated logout through the loopback")
struct EndSessionLoopbackTests {
    @Test("the logout URL's post_logout_redirect_uri is the loopback; the state comes back; signed out first")
    func loopbackLogout() async throws {
        let harness = try EndSessionHarness(EndSessionProvider(), redirectURIs: [:])
        try await harness.signIn()
        let browser = LogoutBrowser()
        let client = harness.client
        let store = harness.store
        try await client.endSessionWithLoopback(open: { url throws(AuthError) in
            let gone = await client.cachedSession == nil && !store.keys.contains(client.storeKey)
            browser.sessionGoneWhenOpened.withLock { $0 = gone }
            try await browser.visit(url)
        })
        #expect(browser.sessionGoneWhenOpened.withLock { $0 } == true)
        let logout = try #require(harness.provider.requests("/logout").first)
        #expect(logout.query("id_token_hint") == "idt-1")
        let redirect = try #require(logout.query("post_logout_redirect_uri"))
        #expect(redirect.hasPrefix("http://127.0.0.1:") && redirect.hasSuffix("/callback"), "\(redirect)")
        #expect(logout.query("state")?.isEmpty == false)
        let page = try #require(browser.loopbackAnswers.first)
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("Signed out"))
        #expect(page.headerFields["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.headerFields["Cache-Control"] == "no-store")
        #expect(page.headerFields["Referrer-Policy"] == "no-referrer")
        await harness.expectSignedOut()
        // Nothing listens on the port any more.
        let port = try #require(URL(string: redirect)?.port)
        await expectAuthError(.networkError) {
            try await browser.request(URL(string: "http://127.0.0.1:\(port)/callback")!)
        }
    }

    @Test("the app's signed-out page: a 303 to the page it hosts, no referrer")
    func configuredPage() async throws {
        let bye = URL(string: "https://app.example/signed-out")!
        let harness = try EndSessionHarness(
            EndSessionProvider(), redirectURIs: [:], loopbackPages: LoopbackPages(signedOut: .redirect(bye)))
        try await harness.signIn()
        let browser = LogoutBrowser()
        try await harness.client.endSessionWithLoopback(open: { url throws(AuthError) in try await browser.visit(url) })
        let page = try #require(browser.loopbackAnswers.first)
        #expect(page.status == 303)
        #expect(page.headerFields["Location"] == bye.absoluteString)
        #expect(page.headerFields["Referrer-Policy"] == "no-referrer")
        await harness.expectSignedOut()
    }

    @Test("a configured loopback postLogout URI gives the host and path")
    func configuredLoopbackURI() async throws {
        let harness = try EndSessionHarness(
            EndSessionProvider(), redirectURIs: ["postLogout": URL(string: "http://localhost/signed-out")!])
        try await harness.signIn()
        let browser = LogoutBrowser()
        try await harness.client.endSessionWithLoopback(open: { url throws(AuthError) in try await browser.visit(url) })
        let redirect = try #require(harness.provider.requests("/logout").first?.query("post_logout_redirect_uri"))
        #expect(redirect.hasPrefix("http://localhost:") && redirect.hasSuffix("/signed-out"), "\(redirect)")
        #expect(browser.loopbackAnswers.first?.status == 200)
    }

    @Test("a callback with another state is refused with the failure page and the wait goes on")
    func stateMismatchRefused() async throws {
        let provider = try EndSessionProvider()
        provider.forgedState.withLock { $0 = "forged-state" }
        let harness = try EndSessionHarness(provider, redirectURIs: [:])
        try await harness.signIn()
        let browser = LogoutBrowser()
        try await harness.client.endSessionWithLoopback(open: { url throws(AuthError) in
            // The provider sends the browser back with a state that is not ours: refused, still waiting.
            let forged = try await browser.visit(url)
            // Then the real callback, with the state the logout URL carried.
            let state =
                URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?
                .value ?? ""
            var real = URLComponents(url: forged, resolvingAgainstBaseURL: false)!
            real.query = "state=" + state
            try await browser.request(real.url!)
        })
        let answers = browser.loopbackAnswers
        #expect(answers.map(\.status) == [400, 200])
        #expect(String(decoding: answers[0].body, as: UTF8.self).contains("did not complete"))
        await harness.expectSignedOut()
    }

    @Test("cancelling the wait is login_cancelled; the local session is gone already")
    func cancelled() async throws {
        let harness = try EndSessionHarness(EndSessionProvider(), redirectURIs: [:])
        try await harness.signIn()
        let (opened, openedContinuation) = AsyncStream.makeStream(of: URL.self)
        let client = harness.client
        let logout = Task {
            try await client.endSessionWithLoopback(open: { url throws(AuthError) in openedContinuation.yield(url) })
        }
        var urls = opened.makeAsyncIterator()
        let url = try #require(await urls.next())
        #expect(url.path == "/logout")
        logout.cancel()
        await expectAuthError(.loginCancelled) { try await logout.value }
        await harness.expectSignedOut()
        #expect(harness.provider.requests("/logout").isEmpty)
    }

    @Test("no end_session_endpoint: invalid_configuration, no browser, signed out all the same")
    func noEndpoint() async throws {
        let harness = try EndSessionHarness(EndSessionProvider(listsEndSession: false), redirectURIs: [:])
        try await harness.signIn()
        await expectAuthError(.invalidConfiguration) {
            try await harness.client.endSessionWithLoopback(open: { _ throws(AuthError) in
                Issue.record("the browser must not open")
            })
        }
        await harness.expectSignedOut()
    }
}
