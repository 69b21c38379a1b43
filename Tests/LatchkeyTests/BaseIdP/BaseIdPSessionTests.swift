import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// What happens after a Base IdP sign-in: restoring (file store) or not (in-memory store), refreshing
/// only within the leeway, local sign-out, configuration from the environment, and the server handoff.
@Suite struct BaseIdPSessionTests {
    @Test func aRelaunchedAppRestoresTheSessionFromTheFileStoreWithoutRequests() async throws {
        try await withBaseIdP { harness in
            let first = try harness.makeClient()
            let session = try await harness.signIn(first)
            harness.server.resetRecording()

            let relaunched = try harness.makeClient()
            let state = await relaunched.restore()
            #expect(state == .signedIn(try #require(session.user)))
            #expect(try await relaunched.validAccessToken() == session.accessToken)
            let restored = try await relaunched.currentSession()
            #expect(restored.refreshToken == session.refreshToken)
            #expect(restored.user == session.user)
            #expect(harness.server.requests.isEmpty)
        }
    }

    @Test func anInMemoryStoreSignsInOnEveryLaunch() async throws {
        try await withBaseIdP { harness in
            let first = try harness.makeClient(store: InMemorySessionStore())
            try await harness.signIn(first)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey) == nil)
            harness.server.resetRecording()

            let relaunched = try harness.makeClient(store: InMemorySessionStore())
            #expect(await relaunched.restore() == .signedOut)
            let error = await baseIdPError { _ = try await relaunched.validAccessToken() }
            #expect(error?.code == .sessionMissing)
            #expect(harness.server.requests.isEmpty)
        }
    }

    @Test func theAccessTokenIsRefreshedOnlyWithinTheLeeway() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient(refreshLeeway: .seconds(60))
            let session = try await harness.signIn(client)
            harness.server.resetRecording()

            // 100 s left: outside the leeway, no request.
            harness.clock.advance(800)
            #expect(try await client.validAccessToken() == session.accessToken)
            #expect(harness.server.requests.isEmpty)

            // 50 s left: within the leeway, one refresh.
            harness.clock.advance(50)
            let refreshed = try await client.validAccessToken()
            #expect(refreshed != session.accessToken)
            #expect(refreshed.hasPrefix("v4.public."))
            #expect(harness.server.paths == ["/oauth2/token"])
            let form = try #require(harness.server.requests("/oauth2/token").first).formBody
            #expect(
                form == [
                    "grant_type": "refresh_token", "refresh_token": session.refreshToken ?? "",
                    "client_id": BaseIdPServer.clientID,
                ])

            // The rotated refresh token is stored; the new token is fresh, so no further request.
            let current = try await client.currentSession()
            #expect(current.refreshToken != session.refreshToken)
            #expect(current.expiresAt == harness.clock.now.addingTimeInterval(900))
            // The same principal, read from the new verified token (its claims, `jti` included, are new).
            #expect(current.user?.id == session.user?.id)
            #expect(current.user?.attributes["sub"] == session.user?.attributes["sub"])
            #expect(current.user?.attributes["jti"] != session.user?.attributes["jti"])
            let stored = try #require(try await harness.storedSession())
            #expect(stored["accessToken"] as? String == refreshed)
            #expect(stored["refreshToken"] as? String == current.refreshToken)
            #expect(try await client.validAccessToken() == refreshed)
            #expect(harness.server.requests.count == 1)
        }
    }

    @Test func signOutIsLocalAndSendsNoRequest() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            try await harness.signIn(client)
            harness.server.resetRecording()

            try await client.signOut()
            #expect(harness.server.requests.isEmpty)
            #expect(client.client.state == .signedOut)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey) == nil)
            let relaunched = try harness.makeClient()
            #expect(await relaunched.restore() == .signedOut)
            #expect(harness.server.requests.isEmpty)
        }
    }

    @Test func theIssuerAndClientKeyComeFromTheEnvironment() async throws {
        try await withBaseIdP { harness in
            let environment = [
                "BASE_IDP_ISSUER": harness.server.issuer + "/", "BASE_IDP_CLIENT_ID": BaseIdPServer.clientKey,
            ]
            let client = try BaseIdPClient(
                redirectURI: BaseIdPServer.customRedirect, options: harness.options(environment: environment))
            let session = try await harness.signIn(client)
            #expect(session.user?.email == BaseIdPServer.person.email)
            #expect(
                baseIdPQuery(harness.server.requests("/v1/client-config").first) == ["key": BaseIdPServer.clientKey])

            // Values passed in code win over the environment.
            let overridden = try BaseIdPClient(
                issuer: harness.server.http.baseURL, clientID: "pk_from_code",
                redirectURI: BaseIdPServer.customRedirect,
                options: harness.options(store: InMemorySessionStore(), environment: environment))
            let error = await baseIdPError { try await harness.signIn(overridden) }
            #expect(error?.code == .configDiscoveryFailed)
            #expect(harness.server.requests("/v1/client-config").last?.query("key") == "pk_from_code")
        }
    }

    @Test func aMissingEnvironmentIsInvalidConfigurationBeforeAnyRequest() async throws {
        try await withBaseIdP { harness in
            let error = await baseIdPError {
                _ = try BaseIdPClient(
                    redirectURI: BaseIdPServer.customRedirect,
                    options: harness.options(environment: ["BASE_IDP_ISSUER": harness.server.issuer]))
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.kind == .misconfigured)
            #expect(error?.message.contains("clientID") == true)
            #expect(harness.server.requests.isEmpty)
        }
    }

    @Test func serverHandoffIsTheSeedPayload() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            let session = try await harness.signIn(client)
            harness.server.resetRecording()

            harness.clock.advance(100)
            let data = try await client.client.serverHandoff()
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
            let person = BaseIdPServer.person
            let expected: NSDictionary = [
                "access_token": session.accessToken,
                "refresh_token": try #require(session.refreshToken),
                "token_type": "PASETO",
                "expires_in": 800,
                "principal": ["gid": person.gid, "sub": person.sub, "email": person.email, "role": person.role],
            ]
            #expect(json == expected)
            // The keys were cached by the sign-in: the handoff verifies offline.
            #expect(harness.server.requests.isEmpty)

            let payload = try await client.client.serverHandoffPayload()
            #expect(payload.principal.gid == person.gid)
            #expect(!payload.description.contains(session.accessToken))
        }
    }

    @Test func serverHandoffAfterARelaunchVerifiesWithTheFetchedKeySet() async throws {
        try await withBaseIdP { harness in
            let session = try await harness.signIn(try harness.makeClient())
            harness.server.resetRecording()

            let relaunched = try harness.makeClient()
            await relaunched.restore()
            let data = try await relaunched.client.serverHandoff()
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(json["access_token"] as? String == session.accessToken)
            #expect((json["principal"] as? [String: Any])?["gid"] as? String == BaseIdPServer.person.gid)
            #expect(harness.server.paths == ["/v1/client-config", "/v1/paseto-keys"])
        }
    }

    @Test func serverHandoffWhenSignedOutIsSessionMissing() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            let error = await baseIdPError { _ = try await client.client.serverHandoff() }
            #expect(error?.code == .sessionMissing)
            #expect(harness.server.requests.isEmpty)
        }
    }
}
