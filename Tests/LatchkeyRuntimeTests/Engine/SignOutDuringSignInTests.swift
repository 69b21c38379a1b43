import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The sign-out fence on the sign-ins that answer with a session in one request: a sign-out while that request
/// is on the wire wins, as it does over the code exchange (`SignOutDuringExchangeTests`).
@Suite("Engine: a sign-out during a password sign-in or a session action wins")
struct SignOutDuringSignInTests {
    /// A sign-in whose one request can be held on the wire.
    enum SignIn: String, CaseIterable, Sendable {
        case password
        /// An action answering with a session or a user (`response: session_or_user`).
        case signUpAction
        /// An action answering with a session only (`response: session`), as a one-time code's check does.
        case verifyCodeAction

        /// The request's path.
        var path: String {
            switch self {
            case .password: "/token"
            case .signUpAction: "/signup"
            case .verifyCodeAction: "/verify"
            }
        }

        /// Starts the sign-in.
        func run(_ client: AuthClient) async throws(AuthError) {
            switch self {
            case .password:
                try await client.signIn(username: "ada@example.com", password: "hunter2")
            case .signUpAction:
                let result = try await client.perform(
                    action: "signUp", arguments: ["email": .string("ada@example.com"), "password": .string("hunter22")])
                guard case .session = result else { throw AuthError(.invalidResponse, "the action gave no session") }
            case .verifyCodeAction:
                let result = try await client.perform(
                    action: "verifyCode", arguments: ["email": .string("ada@example.com"), "code": .string("123456")])
                guard case .session = result else { throw AuthError(.invalidResponse, "the action gave no session") }
            }
        }
    }

    @Test(
        "signOut() while the request is on the wire: login_cancelled, the session never installed or stored",
        arguments: SignIn.allCases)
    func signOutWhileOnTheWire(_ signIn: SignIn) async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        await harness.client.restore()
        let held = HeldRoute()
        let backend = harness.backend
        backend.override(signIn.path) { _ in
            await held.hold()
            return backend.tokens(rotating: nil)
        }
        let client = harness.client
        let attempt = Task { try await signIn.run(client) }
        await held.arrived()
        try await harness.client.signOut()
        held.release()
        let result = await attempt.result
        guard case .failure(let error) = result else {
            Issue.record("the sign-in succeeded after the sign-out")
            return
        }
        #expect((error as? AuthError)?.code == .loginCancelled)
        #expect(harness.client.state == .signedOut)
        #expect(await harness.client.cachedSession == nil)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
        #expect(harness.server.requests.filter { $0.path == signIn.path }.count == 1)
        // Without a sign-out in between, the same sign-in installs its session.
        backend.override(signIn.path) { _ in backend.tokens(rotating: nil) }
        try await signIn.run(harness.client)
        #expect(harness.client.state.isSignedIn)
    }
}
