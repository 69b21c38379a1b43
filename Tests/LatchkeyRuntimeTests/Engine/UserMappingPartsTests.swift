import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// A user mapping's `nameParts` (a name built from several members) and a callback's `scope` (granted scopes
/// that only the callback reports), on the wire.
@Suite("Engine: names from several members, granted scopes from the callback")
struct UserMappingPartsTests {
    static func token(user: [String: Any], scope: String? = nil) -> TestResponse {
        var body: [String: Any] = [
            "access_token": "at-1", "refresh_token": "rt-1", "expires_in": 3600, "token_type": "bearer", "user": user,
        ]
        if let scope { body["scope"] = scope }
        return .json(body)
    }

    static func signedInName(_ user: [String: Any]) async throws -> String? {
        var spec = AcmeSpec.make()
        spec.user.nameParts = ["/given_name", "/family_name"]
        let harness = try AcmeHarness(spec: spec)
        defer { harness.server.stop() }
        let response = token(user: user)
        harness.backend.override("/token") { _ in response }
        return try await harness.signIn().user?.name
    }

    @Test("given_name and family_name make the name when there is no name; a missing or blank part is skipped")
    func nameFromParts() async throws {
        #expect(
            try await Self.signedInName(["id": "u1", "given_name": "Ada", "family_name": "Lovelace"]) == "Ada Lovelace")
        #expect(try await Self.signedInName(["id": "u1", "given_name": "Ada", "family_name": " "]) == "Ada")
        #expect(try await Self.signedInName(["id": "u1", "family_name": "Lovelace"]) == "Lovelace")
        #expect(try await Self.signedInName(["id": "u1"]) == nil)
        #expect(
            try await Self.signedInName([
                "id": "u1", "name": "Countess", "given_name": "Ada", "family_name": "Lovelace",
            ])
                == "Countess")
    }

    @Test("the callback's scope parameter becomes the session's scope when the token response has none")
    func scopeFromCallback() async throws {
        for tokenScope in [nil, "read"] as [String?] {
            var spec = AcmeSpec.make()
            spec.callback.scopeParameter = "scope"
            let harness = try AcmeHarness(spec: spec)
            defer { harness.server.stop() }
            let response = Self.token(user: ["id": "u1", "email": "ada@example.com"], scope: tokenScope)
            harness.backend.override("/oauth/token") { _ in response }
            let request = try await harness.client.prepareAuthorization()
            let session = try await harness.client.handleCallback(
                URL(string: "dev.acme.app://auth-callback?code=c1&scope=read,activity:read_all&state=\(request.state)")!
            )
            #expect(session.scope == (tokenScope ?? "read,activity:read_all"))
            #expect(harness.requests("/oauth/token").count == 1)
        }
    }
}
