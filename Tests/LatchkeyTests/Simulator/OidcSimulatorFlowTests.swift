import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("ProviderSimulator with OidcClient")
struct OidcSimulatorFlowTests {
    @Test("The demo flow: loopback sign-in, refresh, protected API, sign-out; the wire is standard")
    func demoFlow() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            let oidc = try OidcClient(
                issuer: simulator.issuer, clientID: "demo-client",
                options: AuthClientOptions(store: InMemorySessionStore()))
            let agent = HeadlessUserAgent()

            let session = try await oidc.client.signInWithLoopback(open: { url throws(AuthError) in
                try await agent.open(url)
            })
            #expect(session.user?.name == "Ada Lovelace")
            #expect(session.user?.email == "ada@example.com")
            #expect(session.idToken != nil)

            let refreshed = try await oidc.client.currentSession(forceRefresh: true)
            #expect(refreshed.accessToken != session.accessToken)
            #expect(refreshed.refreshToken != session.refreshToken)

            let token = try await oidc.client.validAccessToken()
            let protected = try await simpleRequest(simulator.protectedURL, bearer: token)
            #expect(protected.status == 200)
            #expect(protected.json["message"] as? String == "Hello, Ada Lovelace")

            try await oidc.client.signOut()
            #expect(await oidc.client.cachedSession == nil)
            let afterSignOut = try await simpleRequest(simulator.protectedURL, bearer: token)
            #expect(afterSignOut.status == 401)

            let wire = simulator.requests
            let discovery = try #require(wire.first)
            #expect(discovery.method == "GET")
            #expect(discovery.path == "/.well-known/openid-configuration")

            let authorize = try #require(wire.first { $0.path == "/authorize" })
            #expect(authorize.method == "GET")
            #expect(authorize.query("code_challenge_method") == "S256")
            #expect(authorize.query("response_type") == "code")
            #expect(authorize.query("client_id") == "demo-client")
            #expect(authorize.query("redirect_uri")?.hasPrefix("http://127.0.0.1:") == true)
            #expect(authorize.query("nonce") != nil)
            let challenge = try #require(authorize.query("code_challenge"))

            let tokenRequests = wire.filter { $0.path == "/token" }
            #expect(tokenRequests.count == 2)
            let exchange = try #require(tokenRequests.first)
            #expect(exchange.method == "POST")
            #expect(exchange.header("Content-Type")?.hasPrefix("application/x-www-form-urlencoded") == true)
            #expect(exchange.formBody["grant_type"] == "authorization_code")
            let verifier = try #require(exchange.formBody["code_verifier"])
            #expect(PKCE.challenge(for: verifier) == challenge)
            #expect(tokenRequests.last?.formBody["grant_type"] == "refresh_token")

            let userInfo = try #require(wire.first { $0.path == "/userinfo" })
            #expect(userInfo.method == "GET")
            #expect(userInfo.header("Authorization") == "Bearer \(session.accessToken)")

            let revoke = try #require(wire.first { $0.path == "/revoke" })
            #expect(revoke.method == "POST")
            #expect(revoke.formBody["token"] == refreshed.refreshToken)
        }
    }

    @Test("A denied sign-in is login_cancelled and sends no token request")
    func deniedSignIn() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            let oidc = try OidcClient(
                issuer: simulator.issuer, clientID: "demo-client",
                options: AuthClientOptions(store: InMemorySessionStore()))
            let agent = HeadlessUserAgent()
            let error = await #expect(throws: AuthError.self) {
                try await oidc.client.signInWithLoopback(
                    open: { url throws(AuthError) in try await agent.open(url.addingQuery("deny", "1")) },
                    timeout: .seconds(60))
            }
            #expect(error?.code == .loginCancelled)
            #expect(simulator.requests.contains { $0.path == "/authorize" })
            #expect(simulator.requests.filter { $0.path == "/token" }.isEmpty)
            #expect(await oidc.client.cachedSession == nil)
        }
    }

    @Test("A custom-scheme redirect is returned by the user agent and completes through handleCallback")
    func customSchemeCallback() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            let redirect = URL(string: "dev.latchkey.demo://auth-callback")!
            let oidc = try OidcClient(
                issuer: simulator.issuer, clientID: "demo-client", redirectURI: redirect,
                options: AuthClientOptions(store: InMemorySessionStore()))
            let request = try await oidc.client.prepareAuthorization()
            let callback = try await HeadlessUserAgent().follow(request.url, until: redirect)
            #expect(callback.scheme == "dev.latchkey.demo")
            #expect(callback.absoluteString.contains("iss="))
            let session = try await oidc.client.handleCallback(callback)
            #expect(session.user?.name == "Ada Lovelace")
        }
    }

    @Test("Scopes passed without openid still request it (as Lokksmith does), so the ID token comes back")
    func openIDIsAlwaysRequested() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            let redirect = URL(string: "dev.latchkey.demo://auth-callback")!
            let oidc = try OidcClient(
                issuer: simulator.issuer, clientID: "demo-client", redirectURI: redirect,
                options: AuthClientOptions(store: InMemorySessionStore()))
            let request = try await oidc.client.prepareAuthorization(scopes: ["profile", "email"])
            let callback = try await HeadlessUserAgent().follow(request.url, until: redirect)
            let session = try await oidc.client.handleCallback(callback)
            #expect(session.idToken != nil)
            let authorize = try #require(simulator.requests.first { $0.path == "/authorize" })
            #expect(authorize.query("scope") == "openid profile email")
        }
    }

    @Test("An ID token near expiry makes validAccessToken() refresh, though the access token is fresh (Lokksmith)")
    func idTokenExpiryRefreshes() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            let redirect = URL(string: "dev.latchkey.demo://auth-callback")!
            let offset = Locked<TimeInterval>(0)
            let oidc = try OidcClient(
                issuer: simulator.issuer, clientID: "demo-client", redirectURI: redirect,
                options: AuthClientOptions(
                    store: InMemorySessionStore(), now: { Date().addingTimeInterval(offset.withLock { $0 }) }))
            simulator.setIDTokenLifetime(90)
            let request = try await oidc.client.prepareAuthorization()
            let callback = try await HeadlessUserAgent().follow(request.url, until: redirect)
            let session = try await oidc.client.handleCallback(callback)
            simulator.setIDTokenLifetime(3600)

            // 30 s later the ID token has 60 s left (the refresh leeway); the access token has an hour.
            offset.withLock { $0 = 30 }
            let token = try await oidc.client.validAccessToken()
            #expect(token != session.accessToken)
            #expect(simulator.tokenRequests.count == 2)
            let refreshed = try await oidc.client.currentSession()
            #expect(refreshed.idToken != session.idToken)

            // The renewed ID token is fresh: no further refresh.
            _ = try await oidc.client.validAccessToken()
            #expect(simulator.tokenRequests.count == 2)
        }
    }

    @Test("A reused refresh token is refused and revokes its family")
    func refreshReuse() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            let oidc = try OidcClient(
                issuer: simulator.issuer, clientID: "demo-client",
                options: AuthClientOptions(store: InMemorySessionStore()))
            let agent = HeadlessUserAgent()
            let first = try await oidc.client.signInWithLoopback(open: { url throws(AuthError) in
                try await agent.open(url)
            })
            let second = try await oidc.client.currentSession(forceRefresh: true)
            let oldRefresh = try #require(first.refreshToken)

            let reuse = try await simpleRequest(
                simulator.url("/token"), method: "POST",
                form: ["grant_type": "refresh_token", "refresh_token": oldRefresh, "client_id": "demo-client"])
            #expect(reuse.status == 400)
            #expect(reuse.json["error"] as? String == "invalid_grant")

            let protected = try await simpleRequest(simulator.protectedURL, bearer: second.accessToken)
            #expect(protected.status == 401)
            await #expect(throws: AuthError.self) { try await oidc.client.currentSession(forceRefresh: true) }
        }
    }

    @Test("A code is used once and needs the right PKCE verifier")
    func codeChecks() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            let redirect = URL(string: "dev.latchkey.demo://auth-callback")!
            let oidc = try OidcClient(
                issuer: simulator.issuer, clientID: "demo-client", redirectURI: redirect,
                options: AuthClientOptions(store: InMemorySessionStore()))
            let request = try await oidc.client.prepareAuthorization()
            let callback = try await HeadlessUserAgent().follow(request.url, until: redirect)
            let code = try #require(
                URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "code" }?
                    .value)
            let wrong = try await simpleRequest(
                simulator.url("/token"), method: "POST",
                form: [
                    "grant_type": "authorization_code", "code": code, "redirect_uri": redirect.absoluteString,
                    "client_id": "demo-client", "code_verifier": String(repeating: "a", count: 43),
                ])
            #expect(wrong.status == 400)
            let again = try await simpleRequest(
                simulator.url("/token"), method: "POST",
                form: [
                    "grant_type": "authorization_code", "code": code, "redirect_uri": redirect.absoluteString,
                    "client_id": "demo-client", "code_verifier": String(repeating: "a", count: 43),
                ])
            #expect(again.status == 400)
            #expect(again.json["error_description"] as? String == "The authorization code was already used.")
        }
    }

    @Test("failNext answers the next request with the injected response")
    func faultInjection() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            // Both discovery documents fail once (the runtime falls back from OpenID to RFC 8414 metadata).
            simulator.failNext(
                .json(["error": "temporarily_unavailable"], status: 503), path: "/.well-known/openid-configuration")
            simulator.failNext(
                .json(["error": "temporarily_unavailable"], status: 503),
                path: "/.well-known/oauth-authorization-server")
            let oidc = try OidcClient(
                issuer: simulator.issuer, clientID: "demo-client",
                options: AuthClientOptions(store: InMemorySessionStore()))
            await #expect(throws: AuthError.self) { try await oidc.client.discover() }
            let values = try await oidc.client.discover()
            #expect(values["token_endpoint"] == simulator.url("/token").absoluteString)
        }
    }
}
