import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Issue 27, item 5: which browser a model signs in with — the platform-neutral part of `SignInButton`.
@Suite("State: AuthModel picks its browser", timeLimit(minutes: 1))
@MainActor
struct AuthModelBrowserTests {
    /// A browser that approves: it returns the redirect with a good code and the request's state.
    private static let approving = ScriptedAuthenticator { request throws(AuthError) in
        let state =
            URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "state" }?.value ?? ""
        return URL(string: "dev.acme.app://auth-callback?code=good-code&state=\(state)")!
    }

    /// A browser the test must never see.
    private static let unexpected = ScriptedAuthenticator { _ throws(AuthError) in
        Issue.record("the wrong browser was opened")
        throw AuthError(.loginCancelled, "closed")
    }

    @Test("a model given no browser signs in through the view's (signIn(using:))")
    func viewBrowser() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let model = AuthModel(client: harness.client, authenticator: nil)
        #expect(model.canSignIn)
        await model.signIn(using: Self.approving)
        #expect(model.lastError == nil)
        #expect(model.principal?.id == "user-1")
    }

    @Test("a model's own browser wins over the view's")
    func ownBrowser() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let model = AuthModel(client: harness.client, authenticator: Self.approving)
        await model.signIn(using: Self.unexpected)
        #expect(model.lastError == nil)
        #expect(harness.client.state.isSignedIn)
    }

    @Test("a model with a flow of its own runs it, whatever browser the view offers")
    func flow() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let model = AuthModel(client: harness.client) { client throws(AuthError) in
            try await client.signIn(username: "ada@example.com", password: "hunter2")
        }
        await model.signIn(using: Self.unexpected)
        #expect(model.lastError == nil)
        #expect(harness.client.state.isSignedIn)
    }

    @Test("a model that only mirrors the client cannot sign in, with or without a browser")
    func mirror() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let model = AuthModel(client: harness.client)
        #expect(!model.canSignIn)
        await model.signIn(using: Self.unexpected)
        await model.signIn()
        #expect(!model.isSigningIn)
        #expect(model.lastError == nil)
        #expect(harness.server.requests.isEmpty)
    }

    #if !(canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS) || os(watchOS)))
        @Test("where the platform has no browser sheet, signIn() with none given is invalid_configuration")
        func noPlatformBrowser() async throws {
            let harness = try AcmeHarness()
            defer { harness.server.stop() }
            let model = AuthModel(client: harness.client, authenticator: nil)
            await model.signIn()
            #expect(model.lastError?.code == .invalidConfiguration)
            #expect(!model.isSigningIn)
            #expect(harness.server.requests.isEmpty)
        }
    #endif
}
