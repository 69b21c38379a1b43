import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// What a token response may carry before its access token is copied into an `Authorization` header.
@Suite("Session: token response rules (token characters, token type, expires_in)")
struct TokenResponseRulesTests {
    private func harness(answering body: [String: Any]) throws -> AcmeHarness {
        let harness = try AcmeHarness()
        let response = TestResponse.json(body)
        harness.backend.override("/token") { _ in response }
        return harness
    }

    @Test(
        "an access token outside RFC 6750's token characters is refused: nothing stored, nothing sent with it",
        arguments: [
            "at-1\r\nX-Injected: yes", "at-1\nX-Injected: yes", "at-1\r\n\r\nGET /admin HTTP/1.1", "at\u{0}1",
            "at 1", "tök-1", "a=b", "at-1\u{2028}x", "at,1", "at;1", "at\"1", "at\\1", "at(1)", "at:1",
        ])
    func tokenCharacters(token: String) async throws {
        let harness = try harness(answering: [
            "access_token": token, "token_type": "bearer", "expires_in": 3600,
            "user": ["id": "user-1", "email": "ada@example.com"],
        ])
        defer { harness.server.stop() }
        await harness.client.restore()
        let error = await #expect(throws: AuthError.self) { try await harness.signIn() }
        #expect(error?.code == .invalidResponse)
        #expect(
            error.map { String(describing: $0).contains("Injected") || String(describing: $0).contains(token) } == false
        )
        #expect(await harness.client.cachedSession == nil)
        #expect(try await harness.storedSession() == nil)
        #expect(harness.requests("/user").isEmpty)
        #expect(harness.client.state == .signedOut)
    }

    @Test(
        "token characters RFC 6750 allows are accepted, and the other HTTP token characters: Salesforce's `!`, Amazon's `|`",
        arguments: [
            "at-1", "a.b_c~d+e/f==", "eyJ.eyJ.sig", "v4.public.x", "00DB0000000TfcR!AQQAQFhoK8vTMg_rKA.esrJ2bCs",
            "Atza|IwEBIJ-Ge8ZcO6vL3ZjkX0mGdd1fG-q2LpNVA", "a#b$c%d&e'f*g^h`i",
        ])
    func acceptedTokens(token: String) async throws {
        let harness = try harness(answering: ["access_token": token, "token_type": "Bearer", "expires_in": 3600])
        defer { harness.server.stop() }
        #expect(try await harness.signIn().accessToken == token)
    }

    @Test(
        "a token type the descriptor does not declare (DPoP, mac, N_A) is refused",
        arguments: ["DPoP", "mac", "N_A", "bearer2"])
    func unknownTokenType(type: String) async throws {
        let harness = try harness(answering: ["access_token": "at-1", "token_type": type, "expires_in": 3600])
        defer { harness.server.stop() }
        let error = await #expect(throws: AuthError.self) { try await harness.signIn() }
        #expect(error?.code == .invalidResponse)
        #expect(await harness.client.cachedSession == nil)
        #expect(try await harness.storedSession() == nil)
    }

    @Test("Bearer in any case, or no token_type at all, is accepted")
    func bearerTypes() async throws {
        for type: String? in ["Bearer", "BEARER", "bearer", nil] {
            var body: [String: Any] = ["access_token": "at-1", "expires_in": 3600]
            if let type { body["token_type"] = type }
            let harness = try harness(answering: body)
            defer { harness.server.stop() }
            #expect(try await harness.signIn().accessToken == "at-1", "token_type \(type ?? "missing")")
        }
    }

    @Test(
        "expires_in of zero or less with nothing else is a token issued expired: the next validAccessToken() refreshes",
        arguments: [0, -5])
    func nonPositiveExpiresIn(seconds: Int) async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        harness.backend.setExpiresIn(seconds)
        let session = try await harness.signIn()
        #expect(session.expiresAt == session.issuedAt)
        #expect(harness.refreshRequests.isEmpty)
        #expect(try await harness.client.validAccessToken() == "at-2")
        #expect(harness.refreshRequests.count == 1)
        // Once the provider issues a lifetime again, the token is kept.
        harness.backend.setExpiresIn(3600)
        #expect(try await harness.client.validAccessToken() == "at-3")
        #expect(try await harness.client.validAccessToken() == "at-3")
        #expect(harness.refreshRequests.count == 2)
    }
}
