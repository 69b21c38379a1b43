import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Observation
import Testing

/// A browser that waits for the test before the headless user agent follows the authorization URL, or that
/// the user closes (`login_cancelled`), or that comes back with a forged state.
private final class TestBrowser: WebAuthenticator {
    enum Behaviour: Sendable { case follow, close, forgeState, waitForCancellation }

    private let behaviour: Behaviour
    private let agent = HeadlessUserAgent()
    private let (opened, openedSignal) = AsyncStream<Void>.makeStream()
    private let (released, releaseSignal) = AsyncStream<Void>.makeStream()
    private let opens = Locked(0)

    init(_ behaviour: Behaviour) {
        self.behaviour = behaviour
    }

    /// How many times the browser was opened.
    var openCount: Int { opens.withLock { $0 } }

    /// Waits until the browser was opened.
    func waitUntilOpened() async {
        for await _ in opened { break }
    }

    /// Lets the user finish in the browser.
    func release() { releaseSignal.yield() }

    func authenticate(_ request: WebAuthenticationRequest) async throws(AuthError) -> URL {
        opens.withLock { $0 += 1 }
        openedSignal.yield()
        switch behaviour {
        case .close:
            throw AuthError(.loginCancelled, "The user closed the browser.")
        case .waitForCancellation:
            // A stream nobody feeds: its loop ends only when this task is cancelled.
            let (never, keeper) = AsyncStream<Void>.makeStream()
            for await _ in never {}
            keeper.finish()
            throw AuthError(.loginCancelled, "The sign-in was cancelled.")
        case .follow, .forgeState:
            for await _ in released { break }
            let callback = try await agent.follow(request.url, until: request.redirectURI)
            guard behaviour == .forgeState, var parts = URLComponents(url: callback, resolvingAgainstBaseURL: false)
            else { return callback }
            parts.queryItems = parts.queryItems?.map {
                $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0
            }
            return parts.url ?? callback
        }
    }
}

@Suite("SwiftUI model: AuthModel signs in and out against the simulator", timeLimit(minutes: 2))
struct AuthModelSignInTests {
    private static let redirect = URL(string: "dev.latchkey.demo://auth-callback")!

    /// Runs `body` on the main actor against a fresh simulator, and shuts the simulator down.
    @MainActor
    private func withMainActorSimulator(_ body: @MainActor (ProviderSimulator) async throws -> Void) async throws {
        let simulator = try ProviderSimulator(provider: OidcClient.provider)
        do {
            try await body(simulator)
        } catch {
            await simulator.shutdown()
            throw error
        }
        await simulator.shutdown()
    }

    private func client(_ simulator: ProviderSimulator) throws -> OidcClient {
        try OidcClient(
            issuer: simulator.issuer, clientID: "demo-client", redirectURI: Self.redirect,
            options: AuthClientOptions(store: InMemorySessionStore()))
    }

    /// Waits until the model's state satisfies `condition`, woken by each change of it (Observation), not by
    /// polling; the suite's time limit ends a wait that never sees it.
    @MainActor
    private func settle(_ model: AuthModel, _ condition: (AuthState) -> Bool) async throws {
        while !condition(model.state) {
            try Task.checkCancellation()
            await withCheckedContinuation { (changed: CheckedContinuation<Void, Never>) in
                withObservationTracking {
                    _ = model.state
                } onChange: {
                    changed.resume()
                }
            }
        }
    }

    @Test("signIn(): isSigningIn while the browser is open, a second tap does nothing, then the principal")
    @MainActor
    func signIn() async throws {
        try await withMainActorSimulator { simulator in
            let oidc = try client(simulator)
            let browser = TestBrowser(.follow)
            let model = AuthModel(client: oidc.client, authenticator: browser)
            await oidc.restore()
            #expect(model.canSignIn)
            let first = Task { await model.signIn() }
            await browser.waitUntilOpened()
            #expect(model.isSigningIn)
            #expect(!model.canSignIn)
            await model.signIn()  // A second tap while signing in: no second browser, no request.
            #expect(browser.openCount == 1)
            #expect(simulator.tokenRequests.isEmpty)
            browser.release()
            await first.value
            #expect(!model.isSigningIn)
            #expect(model.lastError == nil)
            try await settle(model) { $0.isSignedIn }
            #expect(model.principal?.name == "Ada Lovelace")
            #expect(model.user == model.principal)
            let exchange = try #require(simulator.tokenRequests.first)
            #expect(simulator.tokenRequests.count == 1)
            #expect(exchange.method == "POST")
            #expect(exchange.formBody["grant_type"] == "authorization_code")
            #expect(exchange.formBody["redirect_uri"] == Self.redirect.absoluteString)
            #expect(exchange.formBody["code_verifier"] != nil)

            await model.signOut()
            #expect(model.lastError == nil)
            try await settle(model) { $0 == .signedOut }
            #expect(model.state == .signedOut)
        }
    }

    @Test("closing the browser is not an error: no lastError, no token request, still signed out")
    @MainActor
    func closedBrowser() async throws {
        try await withMainActorSimulator { simulator in
            let oidc = try client(simulator)
            let model = AuthModel(client: oidc.client, authenticator: TestBrowser(.close))
            await oidc.restore()
            await model.signIn()
            #expect(model.lastError == nil)
            #expect(!model.isSigningIn)
            #expect(simulator.tokenRequests.isEmpty)
            try await settle(model) { $0 == .signedOut }
            #expect(model.state == .signedOut)
        }
    }

    @Test("cancelSignIn() ends a running sign-in without an error and without a token request")
    @MainActor
    func cancelled() async throws {
        try await withMainActorSimulator { simulator in
            let oidc = try client(simulator)
            let browser = TestBrowser(.waitForCancellation)
            let model = AuthModel(client: oidc.client, authenticator: browser)
            await oidc.restore()
            let running = Task { await model.signIn() }
            await browser.waitUntilOpened()
            model.cancelSignIn()
            await running.value
            #expect(model.lastError == nil)
            #expect(!model.isSigningIn)
            #expect(simulator.tokenRequests.isEmpty)
            #expect(!model.isSignedIn)
        }
    }

    @Test("a failed sign-in (forged state) is kept in lastError, with no token request; the next attempt clears it")
    @MainActor
    func failure() async throws {
        try await withMainActorSimulator { simulator in
            let oidc = try client(simulator)
            let forged = TestBrowser(.forgeState)
            let model = AuthModel(client: oidc.client, authenticator: forged)
            await oidc.restore()
            let attempt = Task { await model.signIn() }
            await forged.waitUntilOpened()
            forged.release()
            await attempt.value
            #expect(model.lastError?.code == .stateMismatch)
            #expect(simulator.tokenRequests.isEmpty)
            #expect(!model.isSignedIn)
            let closing = AuthModel(client: oidc.client, authenticator: TestBrowser(.close))
            await closing.signIn()
            #expect(closing.lastError == nil)
        }
    }

    @Test("resetTokens() on the model forgets the session with no request")
    @MainActor
    func reset() async throws {
        try await withMainActorSimulator { simulator in
            let oidc = try client(simulator)
            let browser = TestBrowser(.follow)
            let model = AuthModel(client: oidc.client, authenticator: browser)
            let attempt = Task { await model.signIn() }
            await browser.waitUntilOpened()
            browser.release()
            await attempt.value
            try await settle(model) { $0.isSignedIn }
            simulator.resetRecording()
            await model.resetTokens()
            #expect(model.lastError == nil)
            #expect(simulator.requests.isEmpty)
            try await settle(model) { $0 == .signedOut }
            #expect(model.state == .signedOut)
        }
    }
}
