import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// One test's client against the real provider: a recording transport, its own store and browser.
struct RealProviderHarness {
    let issuer: URL
    let origin: String
    let transport: OIDCRecordingTransport
    let store: InMemorySessionStore
    let oidc: OidcClient
    let browser = FormUserAgent()

    var client: AuthClient { oidc.client }

    /// - Parameters:
    ///   - spec: A changed copy of ``OidcClient/provider``, or `nil` for the generated one.
    ///   - deviceEndpoint: Whether the generated client's `deviceAuthorizationEndpoint` setting is given
    ///     (`{issuer}/device-authorization/`: DOT's discovery lists no device endpoint).
    ///   - clientSecret: The confidential client's secret, supplied at run time.
    ///   - sleep: The device flow's polling sleep.
    init(
        clientID: String = RealProvider.publicClient, redirectURI: URL? = nil, redirectURIs: [String: URL] = [:],
        transport: OIDCRecordingTransport = OIDCRecordingTransport(),
        store: InMemorySessionStore = InMemorySessionStore(),
        spec: ProviderSpec? = nil, deviceEndpoint: Bool = false, clientSecret: String? = nil,
        sleep: @escaping @Sendable (LatchkeyDuration) async throws -> Void = AuthClientOptions.taskSleep
    ) throws {
        issuer = try RealProvider.issuer()
        origin = try RealProvider.origin()
        self.transport = transport
        self.store = store
        let options = AuthClientOptions(transport: transport, store: store, environment: { _ in nil }, sleep: sleep)
        if let spec {
            oidc = OidcClient(
                client: try AuthClient(
                    provider: spec,
                    configuration: ProviderConfiguration(
                        values: ["issuer": issuer.absoluteString, "clientID": clientID], redirectURI: redirectURI,
                        redirectURIs: redirectURIs, clientSecret: clientSecret),
                    options: options))
        } else {
            oidc = try OidcClient(
                issuer: issuer, clientID: clientID,
                deviceAuthorizationEndpoint: deviceEndpoint
                    ? URL(string: issuer.absoluteString + "/device-authorization/") : nil,
                redirectURI: redirectURI, redirectURIs: redirectURIs, clientSecret: clientSecret, options: options)
        }
    }

    /// An `open` for ``AuthClient/signInWithLoopback(open:timeout:scopes:)``: the browser logs in and
    /// approves (or cancels), and delivers the callback to the loopback server.
    func opener(approve: Bool = true, seen: OIDCShared<[URL]> = OIDCShared([]))
        -> @Sendable (URL) async throws(AuthError) -> Void
    {
        let browser = self.browser
        return { url throws(AuthError) in
            seen.update { $0.append(url) }
            let callback = try await browser.signIn(
                authorizeURL: url, username: RealProvider.username, password: RealProvider.password, approve: approve)
            seen.update { $0.append(callback) }
        }
    }

    /// Signs in through the loopback redirect.
    func signIn() async throws -> Session {
        try await client.signInWithLoopback(open: opener(), timeout: .seconds(30))
    }

    /// A raw form POST through the transport (no engine involved).
    func rawPost(_ path: String, _ fields: [(String, String)]) async throws -> (status: Int, json: [String: Any]) {
        var request = TransportRequest(
            method: "POST", url: URL(string: origin + path)!,
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: OIDCFormFields.encode(fields))
        request.setHeader("Accept", "application/json")
        let response = try await URLSessionHTTPTransport().send(request)
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    /// A raw `GET /o/userinfo/` with a bearer token.
    func rawUserInfo(_ accessToken: String) async throws -> Int {
        let request = TransportRequest(
            method: "GET", url: URL(string: origin + "/o/userinfo/")!,
            headers: [("Authorization", "Bearer \(accessToken)")])
        return try await URLSessionHTTPTransport().send(request).status
    }

    /// Rewrites the pending sign-in record in the store (as a relaunched app would read it back).
    func tamperPending(_ change: (inout [String: Any]) -> Void) async throws {
        let data = try #require(try await store.load(key: client.storeKey + ".pending"), "no pending sign-in stored")
        var envelope = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var flows = try #require(envelope["pending"] as? [[String: Any]])
        try #require(flows.count == 1)
        change(&flows[0])
        envelope["pending"] = flows
        try await store.save(try JSONSerialization.data(withJSONObject: envelope), key: client.storeKey + ".pending")
    }
}

// Runs only with a real provider: `LATCHKEY_OIDC_ISSUER` set (CI's `.ci/run`, or `ci-oidc/start.sh` locally).
// Without it the suite is skipped locally; with `CI=true` it is enabled anyway, so a missing issuer or
// an unreachable provider fails instead of skipping.
@Suite(
    "Real OpenID provider (django-oauth-toolkit in ci-oidc/)", .serialized,
    .enabled(
        if: RealProvider.isEnabled,
        "set LATCHKEY_OIDC_ISSUER (bash ci-oidc/start.sh 9400) to run against the real provider"))
struct OpenIDProviderTests {
    @Test("the provider is configured and reachable (fails in CI when it is not)")
    func reachable() async throws {
        let harness = try RealProviderHarness()
        let values = try await harness.client.discover()
        #expect(values["issuer"] == harness.issuer.absoluteString)
    }

    @Test("discovery: the OpenID document alone; RFC 8414 (path-inserted) only when revocation needs it")
    func discovery() async throws {
        let harness = try RealProviderHarness(redirectURI: RealProvider.customRedirect)
        let values = try await harness.client.discover()
        let issuer = harness.issuer.absoluteString
        #expect(values["issuer"] == issuer)
        #expect(values["authorization_endpoint"] == issuer + "/authorize/")
        #expect(values["token_endpoint"] == issuer + "/token/")
        #expect(values["userinfo_endpoint"] == issuer + "/userinfo/")
        #expect(values["jwks_uri"] == issuer + "/.well-known/jwks.json")
        #expect(harness.transport.all.map(\.request.url.rawPath) == ["/o/.well-known/openid-configuration"])
        #expect(harness.transport.all.allSatisfy { $0.response?.status == 200 })

        _ = try await harness.client.discover()
        let request = try await harness.client.prepareAuthorization()
        #expect(request.url.absoluteString.hasPrefix(issuer + "/authorize/?"))
        #expect(harness.transport.all.count == 1, "no new discovery request after the first")

        // DOT lists revocation_endpoint only in its RFC 8414 metadata: a sign-out reads it then.
        let session = try await harness.signIn()
        try await harness.client.signOut()
        #expect(harness.transport.to("/.well-known/oauth-authorization-server/o").count == 1)
        let revoke = try #require(harness.transport.to("/o/revoke_token/").first)
        #expect(revoke.form["token"] == session.refreshToken)
        #expect(try await harness.client.discover()["revocation_endpoint"] == issuer + "/revoke_token/")
    }

    @Test("authorization code + PKCE + state + nonce through the loopback redirect; userinfo sub matches")
    func authorizationCode() async throws {
        let harness = try RealProviderHarness()
        let seen = OIDCShared<[URL]>([])
        let session = try await harness.client.signInWithLoopback(
            open: harness.opener(seen: seen), timeout: .seconds(30))

        let urls = seen.value
        try #require(urls.count == 2)
        let (authorize, callback) = (urls[0], urls[1])
        #expect(authorize.rawPath == "/o/authorize/")
        #expect(authorize.oidcQuery("response_type") == "code")
        #expect(authorize.oidcQuery("client_id") == RealProvider.publicClient)
        #expect(authorize.oidcQuery("code_challenge_method") == "S256")
        #expect(authorize.oidcQuery("scope") == "openid profile email")
        let redirect = try #require(authorize.oidcQuery("redirect_uri"))
        #expect(redirect.hasPrefix("http://127.0.0.1:") && redirect.hasSuffix("/callback"))
        let state = try #require(authorize.oidcQuery("state"))
        let nonce = try #require(authorize.oidcQuery("nonce"))
        let challenge = try #require(authorize.oidcQuery("code_challenge"))
        #expect(callback.absoluteString.hasPrefix(redirect + "?"))
        #expect(callback.oidcQuery("state") == state)
        #expect(callback.oidcQuery("iss") == harness.issuer.absoluteString)
        let code = try #require(callback.oidcQuery("code"))

        let tokens = harness.transport.tokenRequests
        try #require(tokens.count == 1)
        let exchange = tokens[0]
        #expect(exchange.request.method == "POST")
        #expect(exchange.request.header("Content-Type")?.hasPrefix("application/x-www-form-urlencoded") == true)
        #expect(exchange.form["grant_type"] == "authorization_code")
        #expect(exchange.form["code"] == code)
        #expect(exchange.form["redirect_uri"] == redirect)
        #expect(exchange.form["client_id"] == RealProvider.publicClient)
        let verifier = try #require(exchange.form["code_verifier"])
        #expect(PKCE.challenge(for: verifier) == challenge)
        #expect(exchange.response?.status == 200)

        let idToken = try #require(session.idToken)
        let claims = OIDCTest.claims(idToken)
        #expect(claims["iss"] as? String == harness.issuer.absoluteString)
        #expect(claims["aud"] as? String == RealProvider.publicClient)
        #expect(claims["nonce"] as? String == nonce)
        #expect(claims["sub"] as? String == "1")

        let userInfo = try #require(harness.transport.to("/o/userinfo/").first)
        #expect(userInfo.request.header("Authorization") == "Bearer \(session.accessToken)")
        #expect(userInfo.json["sub"] as? String == claims["sub"] as? String)
        #expect(session.user?.id == "1")
        #expect(session.user?.name == "Ada Lovelace")
        #expect(session.user?.email == "ada@example.com")
        #expect(session.refreshToken != nil)
        #expect(harness.client.state == .signedIn(session.userOrPlaceholder))
        #expect(try await harness.store.load(key: harness.client.storeKey) != nil)
        #expect(try await harness.rawUserInfo(session.accessToken) == 200)
    }

    @Test("refresh rotates; replaying the old refresh token is invalid_grant: session cleared, signed out")
    func refreshRotationAndReplay() async throws {
        let harness = try RealProviderHarness()
        let first = try await harness.signIn()
        let oldRefresh = try #require(first.refreshToken)

        // A second client over a copy of the store: it holds the same (soon old) refresh token.
        let copied = InMemorySessionStore(records: [
            harness.client.storeKey: try #require(try await harness.store.load(key: harness.client.storeKey))
        ])
        let stale = try RealProviderHarness(store: copied)

        let refreshed = try await harness.client.currentSession(forceRefresh: true)
        #expect(refreshed.accessToken != first.accessToken)
        let newRefresh = try #require(refreshed.refreshToken)
        #expect(newRefresh != oldRefresh)
        let refresh = try #require(harness.transport.tokenRequests.last)
        #expect(refresh.form["grant_type"] == "refresh_token")
        #expect(refresh.form["refresh_token"] == oldRefresh)
        #expect(refresh.form["client_id"] == RealProvider.publicClient)
        #expect(
            try await harness.store.load(key: harness.client.storeKey).flatMap { String(data: $0, encoding: .utf8) }?
                .contains(
                    newRefresh) == true)

        // The engine replays the old token: the provider says invalid_grant, the engine signs out.
        #expect(await stale.client.restore() == .signedIn(first.userOrPlaceholder))
        let error = await OIDCTest.expectError(.invalidGrant) {
            _ = try await stale.client.currentSession(forceRefresh: true)
        }
        #expect(error?.providerCode == "invalid_grant")
        #expect(error?.status == 400)
        let replay = try #require(stale.transport.tokenRequests.last)
        #expect(replay.form["refresh_token"] == oldRefresh)
        #expect(replay.response?.status == 400)
        #expect(stale.client.state == .signedOut)
        #expect(await stale.client.cachedSession == nil)
        #expect(try await copied.load(key: harness.client.storeKey) == nil)

        // Reuse protection revoked the whole family: the first client's rotated token is dead too.
        await OIDCTest.expectError(.invalidGrant) { _ = try await harness.client.currentSession(forceRefresh: true) }
        #expect(harness.client.state == .signedOut)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
    }

    @Test("sign-out revokes the refresh token at the provider")
    func revocationOnSignOut() async throws {
        let harness = try RealProviderHarness()
        let session = try await harness.signIn()
        let refresh = try #require(session.refreshToken)
        #expect(try await harness.rawUserInfo(session.accessToken) == 200)

        try await harness.client.signOut()
        let revoke = try #require(harness.transport.to("/o/revoke_token/").first)
        #expect(revoke.request.method == "POST")
        #expect(
            revoke.form == [
                "token": refresh, "token_type_hint": "refresh_token", "client_id": RealProvider.publicClient,
            ])
        #expect(revoke.response?.status == 200)
        #expect(harness.client.state == .signedOut)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)

        let reuse = try await harness.rawPost(
            "/o/token/",
            [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", RealProvider.publicClient)])
        #expect(reuse.status == 400)
        #expect(reuse.json["error"] as? String == "invalid_grant")
        #expect(
            try await harness.rawUserInfo(session.accessToken) == 401,
            "revoking the refresh token ends its access token")
    }

    @Test("custom-scheme redirect: prepareAuthorization, the browser stops at the scheme, handleCallback")
    func customScheme() async throws {
        let harness = try RealProviderHarness(redirectURI: RealProvider.customRedirect)
        let request = try await harness.client.prepareAuthorization()
        #expect(request.url.oidcQuery("redirect_uri") == RealProvider.customRedirect.absoluteString)
        let callback = try await harness.browser.signIn(
            authorizeURL: request.url, username: RealProvider.username, password: RealProvider.password)
        #expect(callback.scheme == "dev.latchkey.test")
        #expect(callback.host == "auth-callback")
        #expect(callback.oidcQuery("state") == request.state)
        #expect(callback.oidcQuery("iss") == harness.issuer.absoluteString)
        #expect(!harness.browser.history.contains { $0.url.scheme == "dev.latchkey.test" }, "never requested")

        let session = try await harness.client.handleCallback(callback)
        #expect(session.user?.id == "1")
        #expect(OIDCTest.claims(try #require(session.idToken))["nonce"] as? String == request.nonce)
        let exchange = try #require(harness.transport.tokenRequests.first)
        #expect(exchange.form["redirect_uri"] == RealProvider.customRedirect.absoluteString)
        #expect(harness.transport.tokenRequests.count == 1)
    }

    @Test("consent denied: login_cancelled, and no token request")
    func consentDenied() async throws {
        let harness = try RealProviderHarness()
        let seen = OIDCShared<[URL]>([])
        let error = await OIDCTest.expectError(.loginCancelled) {
            try await harness.client.signInWithLoopback(
                open: harness.opener(approve: false, seen: seen), timeout: .seconds(30))
        }
        #expect(error?.providerCode == "access_denied")
        #expect(seen.value.last?.oidcQuery("error") == "access_denied", "the provider itself reported the denial")
        #expect(harness.transport.tokenRequests.isEmpty)
        #expect(harness.client.state == .signedOut)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
    }

    @Test("state mismatch: state_mismatch and no token request; the genuine callback still completes")
    func stateMismatch() async throws {
        let harness = try RealProviderHarness(redirectURI: RealProvider.customRedirect)
        let request = try await harness.client.prepareAuthorization()
        let callback = try await harness.browser.signIn(
            authorizeURL: request.url, username: RealProvider.username, password: RealProvider.password)
        let forged = callback.oidcReplacingQuery("state", with: "not-the-state")
        #expect(forged.oidcQuery("code") == callback.oidcQuery("code"))

        await OIDCTest.expectError(.stateMismatch) { try await harness.client.handleCallback(forged) }
        #expect(harness.transport.tokenRequests.isEmpty)
        #expect(await harness.client.cachedSession == nil)

        _ = try await harness.client.handleCallback(callback)
        #expect(harness.transport.tokenRequests.count == 1)
    }

    // How the verifier is tampered with: the pending sign-in (state, PKCE verifier, nonce) is persisted in
    // the store under `oidc.pending`; the test rewrites its `codeVerifier` there, as a relaunched app
    // would read it back, so the engine's own exchange sends a verifier that does not match the challenge.
    @Test("a wrong PKCE verifier: the provider says invalid_grant, mapped; nothing stored")
    func wrongVerifier() async throws {
        let harness = try RealProviderHarness(redirectURI: RealProvider.customRedirect)
        let request = try await harness.client.prepareAuthorization()
        let callback = try await harness.browser.signIn(
            authorizeURL: request.url, username: RealProvider.username, password: RealProvider.password)
        let wrong = String(repeating: "A", count: 64)
        try await harness.tamperPending { $0["codeVerifier"] = wrong }

        let error = await OIDCTest.expectError(.invalidGrant) { try await harness.client.handleCallback(callback) }
        #expect(error?.providerCode == "invalid_grant")
        let exchange = try #require(harness.transport.tokenRequests.first)
        #expect(exchange.form["code_verifier"] == wrong)
        #expect(PKCE.challenge(for: wrong) != request.url.oidcQuery("code_challenge"))
        #expect(exchange.response?.status == 400)
        #expect(harness.transport.tokenRequests.count == 1)
        #expect(await harness.client.cachedSession == nil)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
    }

    // The nonce is tampered with the same way: the stored pending sign-in expects another nonce than
    // the one sent to (and signed by) the provider.
    @Test("an ID token with another nonce is invalid_id_token; nothing stored")
    func wrongNonce() async throws {
        let harness = try RealProviderHarness(redirectURI: RealProvider.customRedirect)
        let request = try await harness.client.prepareAuthorization()
        let callback = try await harness.browser.signIn(
            authorizeURL: request.url, username: RealProvider.username, password: RealProvider.password)
        try await harness.tamperPending { $0["nonce"] = "another-nonce" }

        await OIDCTest.expectError(.invalidIDToken) { try await harness.client.handleCallback(callback) }
        #expect(harness.transport.tokenRequests.first?.response?.status == 200, "the provider issued tokens")
        #expect(await harness.client.cachedSession == nil)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
    }

    @Test("an ID token with a tampered signature is invalid_id_token; nothing stored")
    func tamperedSignature() async throws {
        // Flips the signature of every ID token in token responses; the claims stay genuine.
        let transport = OIDCRecordingTransport { request, response in
            guard request.url.rawPath == "/o/token/", response.status == 200,
                var json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any],
                let idToken = json["id_token"] as? String
            else { return response }
            var parts = idToken.split(separator: ".").map(String.init)
            guard parts.count == 3, parts[2].count > 20 else { return response }
            // A character in the middle: every bit of it is signature (the last one carries padding bits).
            var signature = Array(parts[2])
            signature[10] = signature[10] == "A" ? "B" : "A"
            parts[2] = String(signature)
            json["id_token"] = parts.joined(separator: ".")
            var tampered = response
            tampered.body = (try? JSONSerialization.data(withJSONObject: json)) ?? response.body
            return tampered
        }
        let harness = try RealProviderHarness(redirectURI: RealProvider.customRedirect, transport: transport)
        let request = try await harness.client.prepareAuthorization()
        let callback = try await harness.browser.signIn(
            authorizeURL: request.url, username: RealProvider.username, password: RealProvider.password)
        await OIDCTest.expectError(.invalidIDToken) { try await harness.client.handleCallback(callback) }
        #expect(harness.transport.to("/o/.well-known/jwks.json").count == 1, "the key set was fetched")
        #expect(await harness.client.cachedSession == nil)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
    }
}
