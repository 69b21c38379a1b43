import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The refresh-token modules, `max_age`, and RP-initiated logout.
@Suite("Conformance: refresh, max_age and logout")
struct ConformanceSessionTests {
    @Test("oidcc-refresh-token: the refreshed access token reaches userinfo")
    func refresh() async throws {
        try await AdversarialOP.run { op in
            let rp = try ConformanceRP(op)
            let first = try await rp.signIn()
            let refreshed = try await rp.client.currentSession(forceRefresh: true)
            #expect(refreshed.accessToken != first.accessToken)
            #expect(op.requests("/token").last?.formBody["refresh_token"] == first.refreshToken)
            _ = try await rp.client.fetchUser()
            #expect(op.requests("/userinfo").last?.header("Authorization") == "Bearer \(refreshed.accessToken)")
        }
    }

    @Test(
        "oidcc-refresh-token-invalid-issuer / -invalid-sub: a refreshed ID token that fails ends the session",
        arguments: ["iss", "sub", "aud", "signature"])
    func refreshWithInvalidIDToken(claim: String) async throws {
        try await AdversarialOP.run { op in
            let rp = try ConformanceRP(op)
            try await rp.signIn()
            op.behave {
                $0.refreshIDToken = { draft in
                    switch claim {
                    case "iss": draft.claims["iss"] = "https://evil.example"
                    case "sub": draft.claims["sub"] = "user-2"
                    case "aud": draft.claims["aud"] = "someone-else"
                    default: draft.signature = .corrupted
                    }
                }
            }
            let error = await #expect(throws: AuthError.self) { try await rp.client.currentSession(forceRefresh: true) }
            #expect(error?.code == .invalidIDToken)
            #expect(rp.client.state == .signedOut)
            try await rp.expectSignedOut()
            // The rotated-out refresh token is never sent again.
            let tokenRequests = op.requests("/token").count
            await #expect(throws: AuthError.self) { try await rp.client.validAccessToken() }
            #expect(op.requests("/token").count == tokenRequests)
        }
    }

    @Test("max_age: auth_time is required, and must be recent enough")
    func maxAge() async throws {
        try await AdversarialOP.run { op in
            let now = Int(op.clock.now.timeIntervalSince1970)
            op.behave { $0.idToken = { $0.claims["auth_time"] = nil } }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken, maxAge: 300)
            #expect(op.requests("/authorize").last?.query("max_age") == "300")

            op.behave { $0.idToken = { $0.claims["auth_time"] = now - 3600 } }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken, maxAge: 300)

            // The same old auth_time is fine when no max_age was asked for.
            try await ConformanceRP(op).expectSignIn()
            op.behave { $0.idToken = { $0.claims["auth_time"] = now - 60 } }
            try await ConformanceRP(op).expectSignIn(maxAge: 300)
        }
    }

    @Test("max_age survives a relaunch between the authorization request and the callback")
    func maxAgeAfterRelaunch() async throws {
        try await AdversarialOP.run { op in
            let now = Int(op.clock.now.timeIntervalSince1970)
            op.behave { $0.idToken = { $0.claims["auth_time"] = now - 3600 } }
            let rp = try ConformanceRP(op)
            let callback = try await rp.callback(maxAge: 300)
            let relaunched = try rp.relaunched()
            let error = await #expect(throws: AuthError.self) { try await relaunched.client.handleCallback(callback) }
            #expect(error?.code == .invalidIDToken)
        }
    }

    @Test("oidcc-client-test-rp-init-logout: id_token_hint, post_logout_redirect_uri and state; state checked")
    func rpInitiatedLogout() async throws {
        try await AdversarialOP.run { op in
            let rp = try ConformanceRP(op)
            let session = try await rp.signIn()
            let request = try await rp.client.prepareEndSession()
            #expect(await rp.client.cachedSession == nil)
            let callback = try await rp.agent.follow(request.url, until: AdversarialOP.postLogoutRedirectURI)
            let logout = try #require(op.requests("/logout").first)
            #expect(logout.query("id_token_hint") == session.idToken)
            #expect(logout.query("post_logout_redirect_uri") == AdversarialOP.postLogoutRedirectURI.absoluteString)
            #expect(logout.query("client_id") == AdversarialOP.clientID)
            #expect(logout.query("state") == request.state)
            try await rp.client.completeEndSession(request, callbackURL: callback)
        }
    }

    @Test(
        "oidcc-client-test-rp-init-logout-invalid-state / -no-state: state_mismatch",
        arguments: [false, true])
    func rpInitiatedLogoutBadState(omitted: Bool) async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.logoutState = omitted ? .omitted : .value("forged-state") }
            let rp = try ConformanceRP(op)
            try await rp.signIn()
            let request = try await rp.client.prepareEndSession()
            let callback = try await rp.agent.follow(request.url, until: AdversarialOP.postLogoutRedirectURI)
            let error = await #expect(throws: AuthError.self) {
                try await rp.client.completeEndSession(request, callbackURL: callback)
            }
            #expect(error?.code == .stateMismatch)
            try await rp.expectSignedOut()
        }
    }
}
