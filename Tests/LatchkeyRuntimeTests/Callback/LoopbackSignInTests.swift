import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Callback: loopback and web authenticator sign-in")
struct CallbackLoopbackSignInTests {
    /// A browser "user" that approves: it goes to the loopback redirect URI with a code and the state.
    private static func approvingUser(_ transport: URLSessionHTTPTransport, code: String = "good-code")
        -> @Sendable (URL) async throws(AuthError) -> Void
    {
        { url throws(AuthError) in
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let value = { (name: String) in items.first { $0.name == name }?.value ?? "" }
            let redirect = value("redirect_uri")
            let state = value("state")
            Task {
                let callback = URL(string: "\(redirect)?code=\(code)&state=\(state)")!
                _ = try? await transport.send(TransportRequest(method: "GET", url: callback))
            }
        }
    }

    @Test("signInWithLoopback opens the URL, receives the callback on 127.0.0.1 and exchanges the code")
    func loopback() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let session = try await harness.client.signInWithLoopback(
            open: Self.approvingUser(harness.transport), timeout: .seconds(60))
        #expect(session.accessToken == "at-1")
        let form = try #require(harness.requests("/oauth/token").first?.formBody)
        #expect(form["redirect_uri"]?.hasPrefix("http://127.0.0.1:") == true)
        #expect(form["redirect_uri"]?.hasSuffix("/callback") == true)
    }

    @Test("a loopback redirect is refused when the provider does not allow loopback URIs")
    func loopbackNotAllowed() async throws {
        let harness = try AcmeHarness(
            spec: AcmeSpec.make(callback: CallbackSpec(allowedRedirectKinds: [.customScheme])))
        defer { harness.server.stop() }
        await expectAuthError(.invalidConfiguration) {
            try await harness.client.signInWithLoopback(
                open: Self.approvingUser(harness.transport), timeout: .seconds(60))
        }
        #expect(harness.server.requests.isEmpty)
    }

    @Test("closing the browser is login_cancelled with no request, and the state settles")
    func closedBrowser() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        await harness.client.restore()
        let authenticator = ScriptedAuthenticator { _ throws(AuthError) in throw AuthError(.loginCancelled, "closed") }
        await expectAuthError(.loginCancelled) { try await harness.client.signInWithBrowser(using: authenticator) }
        #expect(harness.server.requests.isEmpty)
        #expect(harness.client.state == .signedOut)
        #expect(await !harness.client.canHandle(AcmeHarness.redirect))
    }

    @Test("a web authenticator gets the URL and callback scheme, and its callback completes the sign-in")
    func authenticator() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let authenticator = ScriptedAuthenticator { request throws(AuthError) in
            #expect(request.callbackScheme == "dev.acme.app")
            #expect(request.prefersEphemeralSession)
            let state =
                URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?
                .first { $0.name == "state" }?.value ?? ""
            return URL(string: "dev.acme.app://auth-callback?code=good-code&state=\(state)")!
        }
        let session = try await harness.client.signInWithBrowser(using: authenticator, prefersEphemeralSession: true)
        #expect(session.user?.id == "user-1")
        #expect(harness.client.state.isSignedIn)
    }
}

/// A ``WebAuthenticator`` that runs a closure instead of a browser.
struct ScriptedAuthenticator: WebAuthenticator {
    let script: @Sendable (WebAuthenticationRequest) throws(AuthError) -> URL

    func authenticate(_ request: WebAuthenticationRequest) async throws(AuthError) -> URL { try script(request) }
}
