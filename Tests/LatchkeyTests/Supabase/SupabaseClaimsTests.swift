import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

/// `getClaims(jwt:)` and `mfa.getAuthenticatorAssuranceLevel()`, from supabase.json's `accessTokenClaims`:
/// claims are returned only once verified, with the project's JWKS (asymmetric keys) or by the server (HS256).
@Suite("Supabase: verified claims and assurance level", timeLimit(minutes: 2))
struct SupabaseClaimsTests {
    static let email = "ada@example.com"
    static let password = "lovelace-1815"

    static func signedIn(_ harness: SupabaseHarness) async throws -> (SupabaseClient, Session) {
        try await harness.signedIn(email: email, password: password)
    }

    /// `token` with its payload replaced (header and signature kept).
    static func tampered(_ token: String, _ change: (inout [String: Any]) -> Void) throws -> String {
        let parts = token.split(separator: ".").map(String.init)
        var claims = try #require(GoTrueServer.claims(of: token))
        change(&claims)
        let payload = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        return parts[0] + "." + Base64URL.encode(payload) + "." + parts[2]
    }

    @Test("ES256: the JWKS is fetched once (with apikey) and the signature verified; no GET /user")
    func jwksFetchedOnce() async throws {
        try await withSupabase { harness in
            try harness.gotrue.useAsymmetricKeys()
            let (supabase, session) = try await Self.signedIn(harness)
            let first = try await supabase.getClaims()
            let second = try await supabase.getClaims(jwt: session.accessToken)

            #expect(first.subject == session.user?.id)
            #expect(first.claims["aal"] == .string("aal1"))
            #expect(first.verification == .signature(algorithm: "ES256", keyID: harness.gotrue.jwksKeyID))
            #expect(second == first)
            let jwks = harness.gotrue.requests("/.well-known/jwks.json")
            #expect(jwks.count == 1)
            expectGoTrueRequest(jwks.first, "GET", "/.well-known/jwks.json")
            #expect(harness.gotrue.requests.count == 1, "no GET /user: the signature verified the token")
            #expect(!first.description.contains(Self.email), "no claim value is printed")
        }
    }

    @Test("A forged token is refused: changed claims, another key under the known kid, another issuer")
    func forgedTokenRefused() async throws {
        try await withSupabase { harness in
            let genuineKey = try harness.gotrue.useAsymmetricKeys()
            let (supabase, session) = try await Self.signedIn(harness)
            _ = try await supabase.getClaims()
            harness.gotrue.resetRecording()

            let elevated = try Self.tampered(session.accessToken) { $0["aal"] = "aal2" }
            let changed = await caughtAuthError { _ = try await supabase.getClaims(jwt: elevated) }
            #expect(changed?.code == .invalidToken)

            var claims = try #require(GoTrueServer.claims(of: session.accessToken))
            let impostor = try TestSigner(.p256)
            let otherKey = GoTrueServer.signedJWT(claims, signer: impostor, keyID: harness.gotrue.jwksKeyID)
            let wrongKey = await caughtAuthError { _ = try await supabase.getClaims(jwt: otherKey) }
            #expect(wrongKey?.code == .invalidToken)

            claims["iss"] = "https://attacker.example/auth/v1"
            let foreign = GoTrueServer.signedJWT(claims, signer: genuineKey, keyID: harness.gotrue.jwksKeyID)
            let issuer = await caughtAuthError { _ = try await supabase.getClaims(jwt: foreign) }
            #expect(issuer?.code == .invalidToken)

            claims["iss"] = harness.gotrue.projectURL.absoluteString + "/auth/v1"
            claims["exp"] = Int(Date().timeIntervalSince1970) - 10
            let expired = GoTrueServer.signedJWT(claims, signer: genuineKey, keyID: harness.gotrue.jwksKeyID)
            #expect(await caughtAuthError { _ = try await supabase.getClaims(jwt: expired) }?.code == .invalidToken)

            #expect(await caughtAuthError { _ = try await supabase.getClaims(jwt: "not.a-jwt") }?.code == .invalidToken)
            #expect(harness.gotrue.requests.isEmpty, "refused with no request: not even a fallback GET /user")
            #expect(try await supabase.currentSession().accessToken == session.accessToken, "the session is kept")
        }
    }

    @Test("HS256 (a symmetric project): exactly one GET /user with the token itself; no JWKS request")
    func symmetricFallsBackToServer() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await Self.signedIn(harness)
            let claims = try await supabase.getClaims()

            #expect(claims.verification == .server)
            #expect(claims.subject == session.user?.id)
            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(harness.gotrue.requests.first, "GET", "/user", bearer: session.accessToken)

            // A token the server does not know is refused by it, and the session is not touched.
            harness.gotrue.resetRecording()
            let forged = try Self.tampered(session.accessToken) { $0["aal"] = "aal2" }
            let error = await caughtAuthError { _ = try await supabase.getClaims(jwt: forged) }
            #expect(error?.code == .sessionExpired, "GoTrue's bad_jwt")
            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(harness.gotrue.requests.first, "GET", "/user", bearer: forged)
            #expect(supabase.client.state.isSignedIn)
        }
    }

    @Test("A kid the JWKS lacks: the JWKS is fetched again once, then the server is asked")
    func unknownKeyIDAsksTheServer() async throws {
        try await withSupabase { harness in
            try harness.gotrue.useAsymmetricKeys()
            let (supabase, session) = try await Self.signedIn(harness)
            let claims = try #require(GoTrueServer.claims(of: session.accessToken))
            let rotated = GoTrueServer.signedJWT(claims, signer: try TestSigner(.p256), keyID: "rotated-key")
            let error = await caughtAuthError { _ = try await supabase.getClaims(jwt: rotated) }
            #expect(error?.code == .sessionExpired, "the server does not know the token")
            #expect(harness.gotrue.requests("/.well-known/jwks.json").count == 2)
            #expect(harness.gotrue.requests("/user").count == 1)
            expectGoTrueRequest(harness.gotrue.requests("/user").first, "GET", "/user", bearer: rotated)
        }
    }

    @Test("Signed out: getClaims() is session_missing and the assurance level is empty, with no request")
    func signedOut() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            #expect(await caughtAuthError { _ = try await supabase.getClaims() }?.code == .sessionMissing)
            let level = try await supabase.mfa.getAuthenticatorAssuranceLevel()
            #expect(level == AssuranceLevel(currentLevel: nil, nextLevel: nil, currentAuthenticationMethods: []))
            #expect(harness.gotrue.requests.isEmpty)
        }
    }

    @Test("Assurance level: aal1 → aal2 after a verified TOTP factor, read from the verified token")
    func assuranceLevel() async throws {
        try await withSupabase { harness in
            try harness.gotrue.useAsymmetricKeys()
            let (supabase, _) = try await Self.signedIn(harness)
            let before = try await supabase.mfa.getAuthenticatorAssuranceLevel()
            #expect(before.currentLevel == "aal1" && before.nextLevel == "aal1")
            #expect(before.currentAuthenticationMethods.map(\.method) == ["password"])

            let enrolled = try await supabase.mfa.enroll()
            guard case .document(let factor) = enrolled, let factorID = factor.value(at: "/id")?.string else {
                Issue.record("expected a factor, got \(enrolled)")
                return
            }
            let code = try #require(harness.gotrue.totpCode(factorID: factorID))
            _ = try await supabase.mfa.challengeAndVerify(factorId: factorID, code: code)
            let after = try await supabase.mfa.getAuthenticatorAssuranceLevel()
            #expect(after.currentLevel == "aal2" && after.nextLevel == "aal2")
            #expect(after.currentAuthenticationMethods.map(\.method) == ["totp", "password"])
            #expect(after.currentAuthenticationMethods.first?.timestamp != nil)
            #expect(harness.gotrue.requests("/.well-known/jwks.json").count == 1)
            #expect(harness.gotrue.requests("/user").isEmpty, "levels come from the verified token, no GET /user")
        }
    }

    @Test("Assurance level on an HS256 project: the token is verified by one GET /user per call")
    func assuranceLevelSymmetric() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await Self.signedIn(harness)
            let level = try await supabase.mfa.getAuthenticatorAssuranceLevel()
            #expect(level.currentLevel == "aal1")
            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(harness.gotrue.requests.first, "GET", "/user", bearer: session.accessToken)
        }
    }
}
