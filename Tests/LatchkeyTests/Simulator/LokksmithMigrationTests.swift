import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The flow the migration article maps from Lokksmith's Swift guide (Migrating.md, "From Lokksmith"), run
/// against the provider simulator with the article's calls: the client shared under a key, an authorization
/// code flow with `["profile", "email"]` and additional parameters completed by `handleCallback` (Lokksmith's
/// `onResponse`), fresh tokens, a forced refresh (`refreshOrReset`), then RP-initiated logout through the
/// loopback.
@Suite("Lokksmith migration: the mapped flow on the simulator")
struct LokksmithMigrationTests {
    private static let redirectURI = URL(string: "com.example.app:/callback")!

    @Test("getOrCreate, authorization code with profile/email (openid added), onResponse, fresh tokens, end session")
    func mappedFlow() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            // createLokksmith() + getOrCreate(key) { id; discoveryUrl }, preemptiveRefreshSeconds = 120.
            let registry = AuthRegistry()
            var options = AuthClientOptions(store: InMemorySessionStore(), environment: { _ in nil })
            options.refreshLeeway = .seconds(120)
            let discovery = simulator.issuer.appendingPathComponent(".well-known/openid-configuration")
            let oidc = try await registry.provider(forKey: "my-key") { () throws(AuthError) -> OidcClient in
                try OidcClient(
                    issuer: simulator.issuer, clientID: "my-client-id", discoveryURL: discovery,
                    redirectURI: Self.redirectURI, options: options)
            }
            let again = try await registry.provider(forKey: "my-key") { () throws(AuthError) -> OidcClient in
                Issue.record("getOrCreate must not create a second client")
                return try OidcClient(issuer: simulator.issuer, clientID: "other")
            }
            #expect(again.client === oidc.client, "getOrCreate returns the same client")

            // authorizationCodeFlow(Request(redirectUri, additionalParameters)).prepare(), then onResponse.
            let request = try await oidc.prepareAuthorization(
                scopes: ["profile", "email"], additionalParameters: ["ui_locales": "de"])
            let callback = try await HeadlessUserAgent().follow(request.url, until: Self.redirectURI)
            let session = try await oidc.handleCallback(callback)
            #expect(session.idToken != nil)
            #expect(session.user?.email == "ada@example.com")
            let authorize = try #require(simulator.requests.first { $0.path == "/authorize" })
            let scopes = Set((authorize.query("scope") ?? "").split(separator: " ").map(String.init))
            #expect(scopes == ["openid", "profile", "email"])
            #expect(authorize.query("ui_locales") == "de")
            #expect(authorize.query("redirect_uri") == Self.redirectURI.absoluteString)

            // runWithTokens: a current token, no refresh needed.
            let tokens = simulator.requests.filter { $0.path == "/token" }.count
            let token = try await oidc.validAccessToken()
            #expect(token == session.accessToken)
            #expect(simulator.requests.filter { $0.path == "/token" }.count == tokens)
            let protected = try await simpleRequest(simulator.protectedURL, bearer: token)
            #expect(protected.status == 200)

            // refreshOrReset: a forced refresh.
            let refreshed = try await oidc.currentSession(forceRefresh: true)
            #expect(refreshed.accessToken != session.accessToken)

            // End session, through the loopback: the local session ends first, the state comes back.
            let agent = HeadlessUserAgent()
            try await oidc.endSessionWithLoopback(open: { url throws(AuthError) in try await agent.open(url) })
            let logout = try #require(simulator.requests.first { $0.path == "/logout" })
            #expect(logout.query("id_token_hint") == refreshed.idToken)
            #expect(logout.query("post_logout_redirect_uri")?.hasPrefix("http://127.0.0.1:") == true)
            #expect(logout.query("state")?.isEmpty == false)
            #expect(await oidc.client.cachedSession == nil)
            #expect(oidc.client.state == .signedOut)
        }
    }
}
