import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Plays the browser for an RP-initiated logout on django-oauth-toolkit: opens the end-session URL with
/// the cookies of the sign-in, confirms the logout page when one is shown (`allow=Logout`), and stops at
/// the post-logout redirect URI. `rewrite` lets a test tamper with the callback.
struct DOTLogoutAuthenticator: WebAuthenticator {
    let browser: FormUserAgent
    var rewrite: @Sendable (URL) -> URL = { $0 }

    func authenticate(_ request: WebAuthenticationRequest) async throws(AuthError) -> URL {
        var outcome = try await browser.navigate(request.url, stoppingAt: request.redirectURI)
        for _ in 0..<3 {
            switch outcome {
            case .callback(let url):
                return rewrite(url)
            case .page(let page):
                guard let confirm = page.form(id: "authorizationForm") else {
                    throw AuthError(.webAuthStartFailed, "Unexpected logout page (HTTP \(page.status)).")
                }
                outcome = try await browser.submit(
                    confirm, overrides: [("allow", "Logout")], stoppingAt: request.redirectURI)
            }
        }
        throw AuthError(.webAuthStartFailed, "The logout did not reach the post-logout redirect URI.")
    }
}

extension OpenIDProviderTests {
    @Suite("client credentials and RP-initiated logout")
    struct ServerFlows {
        static let confidentialClient = "latchkey-confidential"
        static let confidentialSecret = "latchkey-confidential-secret"
        static let logoutRedirect = URL(string: "dev.latchkey.test://logout-callback")!

        /// `POST /o/introspect/` with the confidential client's basic authentication.
        static func introspect(_ token: String, origin: String) async throws -> [String: Any] {
            let credentials = Data("\(confidentialClient):\(confidentialSecret)".utf8).base64EncodedString()
            let request = TransportRequest(
                method: "POST", url: URL(string: origin + "/o/introspect/")!,
                headers: [
                    ("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", "Basic " + credentials),
                    ("Accept", "application/json"),
                ],
                body: OIDCFormFields.encode([("token", token)]))
            let response = try await URLSessionHTTPTransport().send(request)
            return (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        }

        @Test("client credentials with the generated client: Basic auth, a live token, cached, no refresh token")
        func clientCredentials() async throws {
            let harness = try RealProviderHarness(
                clientID: Self.confidentialClient, clientSecret: Self.confidentialSecret)
            let before = Date()
            let token = try await harness.oidc.clientCredentialsToken()
            let after = Date()
            let request = try #require(harness.transport.tokenRequests.first)
            let basic = Data("\(Self.confidentialClient):\(Self.confidentialSecret)".utf8).base64EncodedString()
            #expect(request.request.method == "POST")
            #expect(request.request.header("Authorization") == "Basic " + basic)
            #expect(request.form == ["grant_type": "client_credentials"])
            #expect(request.response?.status == 200)
            #expect(request.json["refresh_token"] == nil)
            #expect(request.json["id_token"] == nil)
            #expect(token.tokenType == "Bearer")
            let expiresAt = try #require(token.expiresAt)
            // expires_in is 3600 s, counted from the response (bounds from the clock readings around the call,
            // so a slow machine cannot fail it).
            #expect(expiresAt.timeIntervalSince(before) >= 3599 && expiresAt.timeIntervalSince(after) <= 3601)
            let introspection = try await Self.introspect(token.accessToken, origin: harness.origin)
            #expect(introspection["active"] as? Bool == true)
            #expect(introspection["client_id"] as? String == Self.confidentialClient)

            let again = try await harness.oidc.clientCredentialsToken()
            #expect(again == token)
            #expect(harness.transport.tokenRequests.count == 1, "the cached token needs no second request")
            #expect(harness.client.state == .signedOut || harness.client.state == .loading)
            #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
        }

        @Test("client_secret_post works too; a wrong secret is invalid_client (401); no secret sends nothing")
        func clientAuthentication() async throws {
            var spec = OidcClient.provider
            spec.requests["clientCredentialsToken"]?.clientAuthentication = .post
            let post = try RealProviderHarness(
                clientID: Self.confidentialClient, spec: spec, clientSecret: Self.confidentialSecret)
            _ = try await post.client.clientCredentialsToken()
            let sent = try #require(post.transport.tokenRequests.first)
            #expect(sent.request.header("Authorization") == nil)
            #expect(
                sent.form == [
                    "grant_type": "client_credentials", "client_id": Self.confidentialClient,
                    "client_secret": Self.confidentialSecret,
                ])

            let wrong = try RealProviderHarness(clientID: Self.confidentialClient, clientSecret: "wrong-secret")
            let error = await OIDCTest.expectError("invalid_client") {
                _ = try await wrong.oidc.clientCredentialsToken()
            }
            #expect(error?.status == 401)
            #expect(error?.kind == .misconfigured)
            #expect(!(error.map { String(describing: $0) } ?? "").contains("wrong-secret"))

            let none = try RealProviderHarness(clientID: Self.confidentialClient)
            await OIDCTest.expectError(.invalidConfiguration) { _ = try await none.oidc.clientCredentialsToken() }
            #expect(none.transport.tokenRequests.isEmpty)
        }

        /// Signs in through the custom-scheme redirect with the harness's browser.
        static func signIn(_ harness: RealProviderHarness) async throws -> Session {
            let request = try await harness.client.prepareAuthorization()
            let callback = try await harness.browser.signIn(
                authorizeURL: request.url, username: RealProvider.username, password: RealProvider.password)
            return try await harness.client.handleCallback(callback)
        }

        @Test("RP-initiated logout: id_token_hint, state checked, provider session and tokens gone, signed out")
        func logout() async throws {
            let harness = try RealProviderHarness(
                redirectURI: RealProvider.customRedirect, redirectURIs: ["postLogout": Self.logoutRedirect])
            let session = try await Self.signIn(harness)
            let origin = try #require(URL(string: harness.origin + "/"))
            #expect(try await harness.browser.get(origin).body.contains("ada"))
            let values = try await harness.client.discover()
            #expect(values["end_session_endpoint"] == harness.issuer.absoluteString + "/logout/")

            try await harness.oidc.endSession(using: DOTLogoutAuthenticator(browser: harness.browser))
            let visit = try #require(harness.browser.history.first { $0.url.path.hasSuffix("/logout") })
            #expect(visit.url.oidcQuery("id_token_hint") == session.idToken)
            #expect(visit.url.oidcQuery("client_id") == RealProvider.publicClient)
            #expect(visit.url.oidcQuery("post_logout_redirect_uri") == Self.logoutRedirect.absoluteString)
            #expect(visit.status == 302, "a valid id_token_hint logs out without a confirmation page")
            #expect(harness.client.state == .signedOut)
            #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
            #expect(try await harness.browser.get(origin).body.contains("anonymous"), "the provider's session ended")
            #expect(
                try await harness.rawUserInfo(session.accessToken) == 401,
                "django-oauth-toolkit deletes the user's tokens on logout")
        }

        @Test("RP-initiated logout with a tampered state: state_mismatch, signed out locally all the same")
        func logoutStateMismatch() async throws {
            let harness = try RealProviderHarness(
                redirectURI: RealProvider.customRedirect, redirectURIs: ["postLogout": Self.logoutRedirect])
            _ = try await Self.signIn(harness)
            let tampering = DOTLogoutAuthenticator(browser: harness.browser) { url in
                #expect(url.oidcQuery("state")?.isEmpty == false, "the provider echoes the state")
                return url.oidcReplacingQuery("state", with: "tampered")
            }
            await OIDCTest.expectError(.stateMismatch) { try await harness.oidc.endSession(using: tampering) }
            #expect(harness.client.state == .signedOut)
            #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
        }

        @Test("the relaunched client reads discovery from the store: no discovery request")
        func discoveryFromStore() async throws {
            let first = try RealProviderHarness()
            _ = try await first.client.discover()
            #expect(first.transport.to("/o/.well-known/openid-configuration").count == 1)
            let second = try RealProviderHarness(store: first.store)
            let values = try await second.client.discover()
            #expect(values["token_endpoint"] == first.issuer.absoluteString + "/token/")
            #expect(second.transport.all.isEmpty, "a stored, fresh discovery document needs no request")
        }
    }
}
