import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The OpenID Foundation's Basic RP modules (code flow) against an adversarial provider. Each test names
/// its module; `docs/Conformance.md` lists them all.
@Suite("Conformance: basic RP (ID token)")
struct ConformanceBasicTests {
    @Test("oidcc-client-test (rp-response_type-code): discovery, token, JWKS, userinfo, nothing else")
    func codeFlow() async throws {
        try await AdversarialOP.run { op in
            let rp = try ConformanceRP(op)
            let request = try await rp.client.prepareAuthorization()
            let authorize = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
            let items = Dictionary(
                (authorize.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
            #expect(authorize.path == "/authorize")
            #expect(items["response_type"] == "code")
            #expect(items["scope"]?.split(separator: " ").contains("openid") == true)
            #expect(items["code_challenge_method"] == "S256")
            #expect(items["nonce"]?.isEmpty == false)
            #expect(items["state"] == request.state)
            let callback = try await rp.agent.follow(request.url, until: request.redirectURI)
            let session = try await rp.client.handleCallback(callback)

            #expect(session.user?.id == AdversarialOP.subject)
            #expect(session.user?.name == "Ada Lovelace")
            #expect(session.user?.email == "ada@example.com")
            // The first sign-in against a plain OpenID provider (no device endpoint, which the descriptor can
            // use): no RFC 8414 metadata request.
            #expect(
                op.paths == [
                    "/.well-known/openid-configuration", "/authorize", "/token", "/jwks", "/userinfo",
                ])
            let token = try #require(op.requests("/token").first)
            #expect(token.method == "POST")
            #expect(token.formBody["grant_type"] == "authorization_code")
            #expect(token.formBody["client_id"] == AdversarialOP.clientID)
            #expect(token.header("Authorization") == nil, "a public client sends no client authentication")
            let userinfo = try #require(op.requests("/userinfo").first)
            #expect(userinfo.method == "GET")
            #expect(userinfo.header("Authorization") == "Bearer \(session.accessToken)")
            #expect(userinfo.rawQuery == nil, "the access token never goes into the query")
        }
    }

    @Test("oidcc-client-test-invalid-iss: an ID token from another issuer is refused")
    func invalidIssuer() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.idToken = { $0.claims["iss"] = "https://evil.example" } }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
        }
    }

    @Test("oidcc-client-test-missing-sub: an ID token without sub is refused")
    func missingSub() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.idToken = { $0.claims["sub"] = nil } }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
        }
    }

    @Test(
        "oidcc-client-test-invalid-aud / -missing-aud: aud must hold the client, and azp must name it",
        arguments: [
            "another client", "missing", "several audiences without azp", "azp naming another client",
            "aud as an array without the client",
        ])
    func invalidAudience(variant: String) async throws {
        try await AdversarialOP.run { op in
            op.behave {
                $0.idToken = { draft in
                    switch variant {
                    case "another client": draft.claims["aud"] = "someone-else"
                    case "missing": draft.claims["aud"] = nil
                    case "several audiences without azp": draft.claims["aud"] = [AdversarialOP.clientID, "api"]
                    case "azp naming another client": draft.claims["azp"] = "someone-else"
                    default: draft.claims["aud"] = ["someone-else", "api"]
                    }
                }
            }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
        }
    }

    @Test("several audiences with azp naming the client are accepted")
    func severalAudiencesWithAzp() async throws {
        try await AdversarialOP.run { op in
            op.behave {
                $0.idToken = { draft in
                    draft.claims["aud"] = [AdversarialOP.clientID, "api"]
                    draft.claims["azp"] = AdversarialOP.clientID
                }
            }
            try await ConformanceRP(op).expectSignIn()
        }
    }

    @Test("oidcc-client-test-missing-iat: an ID token without iat is refused")
    func missingIat() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.idToken = { $0.claims["iat"] = nil } }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
        }
    }

    @Test("an expired ID token, and one issued in the future, are refused")
    func times() async throws {
        try await AdversarialOP.run { op in
            let now = Int(op.clock.now.timeIntervalSince1970)
            op.behave { $0.idToken = { $0.claims["exp"] = now - 3600 } }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
            op.behave { $0.idToken = { $0.claims["iat"] = now + 3600 } }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
        }
    }

    @Test("oidcc-client-test-nonce-invalid: a wrong or missing nonce is refused")
    func invalidNonce() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.idToken = { $0.claims["nonce"] = "not-the-nonce-that-was-sent" } }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
            op.behave { $0.idToken = { $0.claims["nonce"] = nil } }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
        }
    }

    @Test("oidcc-client-test-invalid-at-hash: a wrong at_hash is refused; a missing one is allowed in code flow")
    func atHash() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.idToken = { $0.claims["at_hash"] = AdversarialOP.atHash("another-access-token") } }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
            op.behave { $0.idToken = { $0.claims["at_hash"] = nil } }
            try await ConformanceRP(op).expectSignIn()
        }
    }

    @Test("oidcc-client-test-userinfo-invalid-sub: a userinfo sub other than the ID token's fails the sign-in")
    func userinfoSubMismatch() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.userinfo = { $0["sub"] = "user-2" } }
            let rp = try ConformanceRP(op)
            let callback = try await rp.callback()
            let error = await #expect(throws: AuthError.self) { try await rp.client.handleCallback(callback) }
            #expect(error?.code == .invalidResponse)
            #expect(op.requests("/userinfo").count == 1)
            try await rp.expectSignedOut()
        }
    }

    @Test("device flow: the user is the verified ID token's sub; a userinfo sub other than it fails the sign-in")
    func deviceUserinfoSubMismatch() async throws {
        try await AdversarialOP.run { op in
            let device = op.issuer + "/device"
            op.behave { $0.discovery = { $0["device_authorization_endpoint"] = device } }
            let rp = try ConformanceRP(op)
            let session = try await rp.client.completeDeviceAuthorization(
                try await rp.client.startDeviceAuthorization())
            #expect(session.user?.id == AdversarialOP.subject)
            try await rp.client.signOut()

            op.behave { $0.userinfo = { $0["sub"] = "user-2" } }
            let authorization = try await rp.client.startDeviceAuthorization()
            let error = await #expect(throws: AuthError.self) {
                try await rp.client.completeDeviceAuthorization(authorization)
            }
            #expect(error?.code == .invalidResponse)
            #expect(op.requests("/userinfo").count == 2)
            try await rp.expectSignedOut()
        }
    }

    @Test("fetchUser() refuses a user document for another subject than the verified ID token")
    func fetchUserSubMismatch() async throws {
        try await AdversarialOP.run { op in
            let rp = try ConformanceRP(op)
            try await rp.signIn()
            op.behave { $0.userinfo = { $0["sub"] = "user-2" } }
            let error = await #expect(throws: AuthError.self) { try await rp.client.fetchUser() }
            #expect(error?.code == .invalidResponse)
            #expect(await rp.client.cachedSession?.user?.id == AdversarialOP.subject)
            #expect(op.requests("/userinfo").count == 2)
        }
    }

    @Test("oidcc-client-test-scope-userinfo-claims: profile and email claims come from userinfo")
    func scopeUserInfoClaims() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.userinfo = { $0["name"] = "Augusta Ada King" } }
            let session = try await ConformanceRP(op).signIn()
            let authorize = try #require(op.requests("/authorize").first)
            let scopes = Set(authorize.query("scope")?.split(separator: " ").map(String.init) ?? [])
            #expect(scopes.isSuperset(of: ["openid", "profile", "email"]))
            #expect(session.user?.name == "Augusta Ada King")
        }
    }
}
