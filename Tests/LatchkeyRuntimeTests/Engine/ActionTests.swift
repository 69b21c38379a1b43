import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Engine: actions and user info")
struct EngineActionTests {
    @Test("arguments are checked before any request")
    func validation() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let cases: [[String: ActionArgument]] = [
            [:], ["email": .string("ab")], ["email": .int(3)],
            ["email": .string("ada@x.io"), "channel": .string("fax")],
            ["email": .string("ada@x.io"), "unknown": .bool(true)],
        ]
        for arguments in cases {
            await expectAuthError(.validationFailed) {
                _ = try await harness.client.perform(action: "resetPassword", arguments: arguments)
            }
        }
        await expectAuthError(.invalidConfiguration) { _ = try await harness.client.perform(action: "nope") }
        #expect(harness.server.requests.isEmpty)
    }

    @Test("typed arguments keep their JSON types, and absent optional ones are left out")
    func typedBody() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let result = try await harness.client.perform(
            action: "resetPassword",
            arguments: [
                "email": .string("ada@x.io"), "create": .bool(true), "redirect": .url(URL(string: "dev.acme.app://r")!),
            ])
        #expect(result == .none)
        let body = try #require(harness.requests("/recover").first?.jsonBody as? NSDictionary)
        #expect(body == ["email": "ada@x.io", "create": true, "redirect_to": "dev.acme.app://r"] as NSDictionary)
    }

    @Test("document, session-or-user, and user results")
    func results() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        #expect(
            try await harness.client.perform(action: "settings")
                == .document(.object(["external": .object(["google": .bool(true)])])))
        harness.backend.override("/signup") { _ in .json(["id": "user-9", "email": "new@x.io"]) }
        let pending = try await harness.client.perform(
            action: "signUp", arguments: ["email": .string("new@x.io"), "password": .string("long enough")])
        guard case .user(let user) = pending else { throw AuthError(.unknown, "expected a user") }
        #expect(user.id == "user-9")
        #expect(!harness.client.state.isSignedIn)
        harness.backend.override("/signup") { _ in harness.backend.tokens(rotating: nil) }
        let signedUp = try await harness.client.perform(
            action: "signUp", arguments: ["email": .string("new@x.io"), "password": .string("long enough")])
        guard case .session(let session) = signedUp else { throw AuthError(.unknown, "expected a session") }
        #expect(harness.client.state.user?.id == session.user?.id)
        let fetched = try await harness.client.fetchUser()
        #expect(fetched.name == "Ada")
        #expect(await harness.client.cachedSession?.user?.name == "Ada")
        #expect(harness.requests("/user").first?.header("Authorization") == "Bearer \(session.accessToken)")
    }

    @Test("fetchUser needs a session and sends nothing without one")
    func fetchUserSignedOut() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        await expectAuthError(.sessionMissing) { _ = try await harness.client.fetchUser() }
        #expect(harness.server.requests.isEmpty)
    }
}
