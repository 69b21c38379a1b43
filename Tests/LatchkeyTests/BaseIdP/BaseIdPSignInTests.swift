import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Browser sign-in with the generated `BaseIdPClient` against a Base IdP look-alike: client-config
/// discovery, the client policy (confidential clients, registered redirect URIs), PKCE and state, the code
/// exchange, offline verification of the PASETO access token, `/v1/me`, persistence and the state stream.
@Suite struct BaseIdPSignInTests {
    @Test func signInWithACustomSchemeRedirectFollowsTheWireContract() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            let session = try await harness.signIn(client)

            let server = harness.server
            #expect(
                server.paths == [
                    "/v1/client-config", "/oauth2/authorize", "/oauth2/token", "/v1/paseto-keys", "/v1/me",
                ])
            let config = server.requests("/v1/client-config").first
            #expect(baseIdPQuery(config) == ["key": BaseIdPServer.clientKey])

            let authorize = baseIdPQuery(server.requests("/oauth2/authorize").first)
            #expect(
                Set(authorize.keys) == [
                    "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
                    "code_challenge_method",
                ])
            #expect(authorize["response_type"] == "code")
            #expect(authorize["client_id"] == BaseIdPServer.clientID)
            #expect(authorize["redirect_uri"] == BaseIdPServer.customRedirect.absoluteString)
            #expect(authorize["scope"] == "openid profile email")
            #expect(authorize["code_challenge_method"] == "S256")
            #expect((authorize["state"] ?? "").count >= 32)
            #expect((authorize["nonce"] ?? "").count >= 32)

            let tokenRequest = try #require(server.requests("/oauth2/token").first)
            #expect(tokenRequest.header("Content-Type")?.hasPrefix("application/x-www-form-urlencoded") == true)
            let form = tokenRequest.formBody
            #expect(Set(form.keys) == ["grant_type", "code", "redirect_uri", "client_id", "code_verifier"])
            #expect(form["grant_type"] == "authorization_code")
            #expect(form["client_id"] == BaseIdPServer.clientID)
            #expect(form["redirect_uri"] == BaseIdPServer.customRedirect.absoluteString)
            #expect(BaseIdPServer.challenge(for: form["code_verifier"] ?? "") == authorize["code_challenge"])

            let me = try #require(server.requests("/v1/me").first)
            #expect(me.headerValues("Authorization") == ["Bearer " + session.accessToken])

            #expect(session.accessToken.hasPrefix("v4.public."))
            #expect(session.refreshToken?.hasPrefix("rt_") == true)
            #expect(session.tokenType == "PASETO")
            #expect(session.expiresAt == harness.clock.now.addingTimeInterval(900))
            let claims = try #require(baseIdPClaims(session.accessToken))
            #expect(claims["aud"] as? String == "square-experience")
            #expect(claims["iss"] as? String == server.issuer)

            // Principal fields on the user.
            let user = try #require(session.user)
            let person = BaseIdPServer.person
            #expect(user.id == person.gid)
            #expect(user.attributes["sub"]?.string == person.sub)
            #expect(user.email == person.email)
            #expect(user.name == person.name)
            #expect(user.role == person.role)
            #expect(user.scopes == person.scopes)
            #expect(user.attributes["gid"]?.string == person.gid)

            // Persisted and published.
            #expect(client.client.state == .signedIn(user))
            let stored = try #require(try await harness.storedSession())
            #expect(stored["accessToken"] as? String == session.accessToken)
            #expect(stored["refreshToken"] as? String == session.refreshToken)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey + ".pending") == nil)
        }
    }

    @Test func signInWithALoopbackRedirect() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient(redirectURI: harness.server.loopbackRedirect)
            let session = try await harness.signIn(client)
            #expect(session.user?.id == BaseIdPServer.person.gid)
            let authorize = baseIdPQuery(harness.server.requests("/oauth2/authorize").first)
            #expect(authorize["redirect_uri"] == harness.server.loopbackRedirect.absoluteString)
            let form = harness.server.requests("/oauth2/token").first?.formBody
            #expect(form?["redirect_uri"] == harness.server.loopbackRedirect.absoluteString)
        }
    }

    @Test func signInWithLoopbackListensOnTheExactRegisteredPort() async throws {
        try await withBaseIdP { harness in
            // A free port no other test is handed (not one bind(0) could give another socket meanwhile).
            let port = try UnassignedPort.take()
            let redirect = try #require(URL(string: "http://127.0.0.1:\(port)/oauth/callback"))
            harness.server.configure { $0.allowedRedirectURIs = [redirect.absoluteString] }
            let client = try harness.makeClient(redirectURI: redirect)
            let agent = HeadlessUserAgent()
            let session = try await client.signInWithLoopback(
                open: { url throws(AuthError) in try await agent.open(url) }, timeout: .seconds(30))
            #expect(session.user?.id == BaseIdPServer.person.gid)
            let authorize = baseIdPQuery(harness.server.requests("/oauth2/authorize").first)
            #expect(authorize["redirect_uri"] == redirect.absoluteString)
            let form = harness.server.requests("/oauth2/token").first?.formBody
            #expect(form?["redirect_uri"] == redirect.absoluteString)
        }
    }

    @Test func theClientConfigurationAndKeySetAreFetchedOnce() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            try await harness.signIn(client)
            try await client.signOut()
            try await harness.signIn(client)
            #expect(harness.server.requests("/v1/client-config").count == 1)
            #expect(harness.server.requests("/v1/paseto-keys").count == 1)
            #expect(harness.server.requests("/oauth2/token").count == 2)
        }
    }

    @Test func aConfidentialClientIsRefusedBeforeTheBrowserOpens() async throws {
        try await withBaseIdP { harness in
            harness.server.configure { $0.confidential = true }
            let client = try harness.makeClient()
            let browser = CountingBrowser()
            let error = await baseIdPError { try await client.signInWithBrowser(using: browser) }
            #expect(error?.code == .confidentialClientInMobile)
            #expect(error?.code.rawValue == "confidential_client_in_mobile")
            #expect(error?.kind == .misconfigured)
            #expect(browser.openCount == 0)
            #expect(harness.server.paths == ["/v1/client-config"])
            #expect(client.client.state.isSignedIn == false)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey) == nil)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey + ".pending") == nil)
        }
    }

    @Test func aRedirectURIThatIsNotRegisteredIsRefusedBeforeTheBrowserOpens() async throws {
        try await withBaseIdP { harness in
            harness.server.configure { $0.allowedRedirectURIs = ["dev.example.latchkey://another/path"] }
            let client = try harness.makeClient()
            let browser = CountingBrowser()
            let error = await baseIdPError { try await client.signInWithBrowser(using: browser) }
            #expect(error?.code == .redirectMismatch)
            #expect(browser.openCount == 0)
            #expect(harness.server.paths == ["/v1/client-config"])
        }
    }

    @Test func aCallbackWithAnotherStateIsRefusedWithoutATokenRequest() async throws {
        try await withBaseIdP { harness in
            harness.server.configure { $0.authorizeOutcome = .forgeState }
            let client = try harness.makeClient()
            let error = await baseIdPError { try await harness.signIn(client) }
            #expect(error?.code == .stateMismatch)
            #expect(harness.server.requests("/oauth2/token").isEmpty)
            #expect(harness.server.requests("/v1/me").isEmpty)
            #expect(client.client.state.isSignedIn == false)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey) == nil)
        }
    }

    @Test func aCallbackToAnotherRedirectURIIsRefusedWithoutATokenRequest() async throws {
        try await withBaseIdP { harness in
            let elsewhere = URL(string: "dev.example.latchkey://oauth/elsewhere")!
            harness.server.configure { $0.authorizeOutcome = .redirect(to: elsewhere) }
            let client = try harness.makeClient()
            let error = await baseIdPError { try await harness.signIn(client) }
            #expect(error?.code == .redirectMismatch)
            #expect(harness.server.requests("/oauth2/token").isEmpty)
            #expect(client.client.state.isSignedIn == false)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey) == nil)
        }
    }

    @Test func accessDeniedIsLoginCancelledWithoutATokenRequest() async throws {
        try await withBaseIdP { harness in
            harness.server.configure { $0.authorizeOutcome = .deny }
            let client = try harness.makeClient()
            await client.restore()
            let error = await baseIdPError { try await harness.signIn(client) }
            #expect(error?.code == .loginCancelled)
            #expect(error?.code.rawValue == "login_cancelled")
            #expect(error?.kind == .cancelled)
            #expect(error?.providerCode == "access_denied")
            #expect(harness.server.requests("/oauth2/token").isEmpty)
            #expect(client.client.state == .signedOut)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey + ".pending") == nil)
        }
    }

    @Test func anAuthorizationPageThatDoesNotRedirectIsWebAuthStartFailed() async throws {
        try await withBaseIdP { harness in
            harness.server.configure { $0.authorizeOutcome = .page }
            let client = try harness.makeClient()
            await client.restore()
            let error = await baseIdPError { try await harness.signIn(client) }
            #expect(error?.code == .webAuthStartFailed)
            #expect(error?.code.rawValue == "web_auth_start_failed")
            #expect(harness.server.requests("/oauth2/token").isEmpty)
            #expect(client.client.state == .signedOut)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey + ".pending") == nil)
        }
    }

    @Test func anUnknownClientKeyIsConfigDiscoveryFailed() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient(clientKey: "pk_unknown")
            let browser = CountingBrowser()
            let error = await baseIdPError { try await client.signInWithBrowser(using: browser) }
            #expect(error?.code == .configDiscoveryFailed)
            #expect(error?.code.rawValue == "config_discovery_failed")
            #expect(browser.openCount == 0)
            #expect(harness.server.paths == ["/v1/client-config"])
        }
    }

    @Test func theStateStreamGoesFromSignedOutThroughAuthenticatingToSignedIn() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            await client.restore()
            var updates = client.stateUpdates().makeAsyncIterator()
            #expect(await updates.next() == .signedOut)
            let session = try await harness.signIn(client)
            #expect(await updates.next() == .authenticating)
            #expect(await updates.next() == .signedIn(try #require(session.user)))
        }
    }
}
