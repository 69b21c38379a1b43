import BaseIdP
import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import Observation
import Testing

/// The Base IdP guide's narrative through the generated `BaseIdP` module (`BaseIdPAuth`), on the Base IdP server:
/// a first launch signed out, a sign-in, a relaunch signed in without any request, the server handoff, a sign-out
/// that returns at once, and the guide's error codes as `BaseIdPError.code`.
@Suite struct BaseIdPSDKGuideTests {
    @Test(timeLimit(minutes: 2)) @MainActor func firstLaunchSignInRelaunchHandoffAndSignOut() async throws {
        try await withBaseIdPOnMainActor { harness in
            let store = harness.fileStore
            // First launch: nothing stored; restoring reads only the store.
            let auth = harness.makeAuth(store: store)
            #expect(auth.state == .authenticating, "restoring shows as authenticating")
            #expect(await auth.restore() == .signedOut)
            #expect(auth.principal == nil)
            #expect(harness.server.requests.isEmpty)

            // Sign in: discovery, the browser, the code exchange, the keys, /v1/me.
            let session = try await auth.signIn()
            let person = BaseIdPServer.person
            #expect(session.principal.email == person.email)
            #expect(session.principal.gid == person.gid)
            #expect(session.principal.sub == person.sub)
            #expect(session.principal.id == person.gid)
            #expect(auth.state == .signedIn)
            #expect(auth.principal == session.principal)
            #expect(auth.principal?.role == person.role)
            #expect(
                harness.server.paths == [
                    "/v1/client-config", "/oauth2/authorize", "/oauth2/token", "/v1/paseto-keys", "/v1/me",
                ])
            let accessToken = try await auth.validAccessToken()
            #expect(accessToken.hasPrefix("v4.public."))
            #expect(!String(describing: session).contains(accessToken))

            // The handoff, as the app posts it with JSONSerialization; expires_in counts from now.
            harness.clock.advance(100)
            let body = try JSONSerialization.data(withJSONObject: session.serverHandoff())
            let json = try #require(try JSONSerialization.jsonObject(with: body) as? NSDictionary)
            let stored = try #require(try await harness.storedSession(store: store))
            let expected: NSDictionary = [
                "access_token": accessToken,
                "refresh_token": try #require(stored["refreshToken"] as? String),
                "token_type": "PASETO",
                "expires_in": 800,
                "principal": ["gid": person.gid, "sub": person.sub, "email": person.email, "role": person.role],
            ]
            #expect(json == expected)
            harness.server.resetRecording()

            // Relaunch: a new object over the same store is signed in, without any request.
            let relaunched = harness.makeAuth(store: store)
            #expect(await relaunched.restore() == .signedIn)
            #expect(relaunched.principal?.email == person.email)
            #expect(try await relaunched.validAccessToken() == accessToken)
            #expect(harness.server.requests.isEmpty)
            // A returning user's handoff verifies the stored token: this launch fetches the key set once.
            let restored = try await relaunched.currentSession()
            let handoff = restored.serverHandoff()
            #expect(handoff["access_token"] as? String == accessToken)
            #expect(handoff["expires_in"] as? Int == 800)
            #expect(harness.server.paths == ["/v1/client-config", "/v1/paseto-keys"])
            harness.server.resetRecording()

            // Sign-out returns at once, signed out; the store is emptied before the next call runs.
            relaunched.signOut()
            #expect(relaunched.state == .signedOut)
            #expect(relaunched.principal == nil)
            do {
                _ = try await relaunched.validAccessToken()
                Issue.record("expected session_missing")
            } catch let error as BaseIdPError {
                #expect(error.code == "session_missing")
            }
            #expect(try await harness.storedSession(store: store) == nil)
            #expect(harness.server.requests.isEmpty)
            #expect(await harness.makeAuth(store: store).restore() == .signedOut)
        }
    }

    @Test(timeLimit(minutes: 2)) @MainActor func aCancelledSignInIsLoginCancelledAndLeavesTheStateSignedOut()
        async throws
    {
        try await withBaseIdPOnMainActor { harness in
            harness.server.configure { $0.authorizeOutcome = .deny }
            let auth = harness.makeAuth()
            await auth.restore()
            let error = await harness.signInError(auth)
            #expect(error?.code == "login_cancelled")
            #expect(auth.state == .signedOut)
            #expect(harness.server.requests("/oauth2/token").isEmpty)
        }
    }

    @Test(timeLimit(minutes: 2)) @MainActor func aConfidentialClientIsRefusedBeforeTheBrowserOpens() async throws {
        try await withBaseIdPOnMainActor { harness in
            harness.server.configure { $0.confidential = true }
            let browser = CountingBrowser()
            let auth = harness.makeAuth(browser: browser)
            let error = await harness.signInError(auth)
            #expect(error?.code == "confidential_client_in_mobile")
            let failure = try #require(error)
            #expect(auth.state == .failed(failure))
            #expect(browser.openCount == 0)
            #expect(harness.server.paths == ["/v1/client-config"])
        }
    }

    @Test(timeLimit(minutes: 2)) @MainActor func anUnknownClientKeyIsConfigDiscoveryFailed() async throws {
        try await withBaseIdPOnMainActor { harness in
            let browser = CountingBrowser()
            let auth = harness.makeAuth(clientId: "pk_unknown", browser: browser)
            let error = await harness.signInError(auth)
            #expect(error?.code == "config_discovery_failed")
            let failure = try #require(error)
            #expect(auth.state == .failed(failure))
            #expect(browser.openCount == 0)
        }
    }

    @Test(timeLimit(minutes: 2)) @MainActor func aRefusedCodeExchangeIsTokenExchangeFailed() async throws {
        try await withBaseIdPOnMainActor { harness in
            harness.server.configure { $0.tokenFailure = ("invalid_grant", 400) }
            let auth = harness.makeAuth()
            let error = await harness.signInError(auth)
            #expect(error?.code == "token_exchange_failed")
            #expect(error?.providerCode == "invalid_grant")
            #expect(error?.status == 400)
            let failure = try #require(error)
            #expect(auth.state == .failed(failure))
            #expect(auth.principal == nil)
            #expect(try await harness.storedSession() == nil)
        }
    }

    @Test(timeLimit(minutes: 2)) @MainActor
    func aForgedStateIsStateMismatchAndAPageThatNeverRedirectsIsWebAuthStartFailed() async throws {
        try await withBaseIdPOnMainActor { harness in
            harness.server.configure { $0.authorizeOutcome = .forgeState }
            let auth = harness.makeAuth()
            #expect(await harness.signInError(auth)?.code == "state_mismatch")
            harness.server.configure { $0.authorizeOutcome = .page }
            #expect(await harness.signInError(auth)?.code == "web_auth_start_failed")
            #expect(harness.server.requests("/oauth2/token").isEmpty)
        }
    }

    @Test(timeLimit(minutes: 2)) @MainActor func aTokenWhoseKeyIsTheWrongSizeIsInvalidKey() async throws {
        try await withBaseIdPOnMainActor { harness in
            let other = Data(repeating: 7, count: 32).base64EncodedString()
            harness.server.configure {
                // Another usable key, so that the document is not keyless (key_fetch_failed).
                $0.extraKeyEntries = [
                    ["kid": "k-other", "alg": "v4.public", "kty": "OKP", "crv": "Ed25519", "public_key_base64": other]
                ]
                $0.publishedKeyBase64 = Data(repeating: 1, count: 31).base64EncodedString()
            }
            let auth = harness.makeAuth()
            #expect(await harness.signInError(auth)?.code == "invalid_key")
            #expect(harness.server.requests("/v1/me").isEmpty)
        }
    }

    @Test(timeLimit(minutes: 2)) @MainActor func aConfigurationTheClientRefusesIsAFailedStateNotAThrowingInitializer()
        async throws
    {
        let auth = BaseIdPAuth(
            config: BaseIdPConfig(clientId: "", issuer: URL(string: "http://example.com")),
            store: InMemorySessionStore(), prefersEphemeralSession: false, authenticator: HeadlessUserAgent(),
            options: AuthClientOptions(environment: { _ in nil }))
        guard case .failed(let error) = auth.state else {
            Issue.record("expected failed, got \(auth.state)")
            return
        }
        #expect(error.code == "invalid_configuration")
        do {
            _ = try await auth.signIn()
            Issue.record("expected invalid_configuration")
        } catch let thrown as BaseIdPError {
            #expect(thrown == error)
        }
        auth.signOut()
        #expect(await auth.restore() == .failed(error))
    }

    @Test(timeLimit(minutes: 2)) @MainActor func stateAndPrincipalChangesAreObserved() async {
        let auth = BaseIdPAuth(
            config: BaseIdPConfig(clientId: "sq_live_yourapp"), store: InMemorySessionStore(),
            prefersEphemeralSession: false, authenticator: HeadlessUserAgent(), options: nil)
        let changes = Locked(0)
        withObservationTracking {
            _ = auth.state
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        #expect(await auth.restore() == .signedOut)
        #expect(changes.withLock { $0 } == 1)
    }

    @Test(timeLimit(minutes: 2)) @MainActor func fromInfoPlistReadsTheGuidesKeys() throws {
        let values = ["BASE_IDP_CLIENT_ID": "sq_live_yourapp", "BASE_IDP_ISSUER": "https://id.example.com"]
        let config = try BaseIdPConfig.fromInfoPlist { values[$0] }
        #expect(config == BaseIdPConfig(clientId: "sq_live_yourapp", issuer: URL(string: "https://id.example.com")))
        do {
            _ = try BaseIdPConfig.fromInfoPlist { _ in nil }
            Issue.record("expected invalid_configuration")
        } catch let error as BaseIdPError {
            #expect(error.code == "invalid_configuration")
            #expect(error.message.contains("BASE_IDP_CLIENT_ID"))
        }
        do {
            _ = try BaseIdPConfig.fromInfoPlist { $0 == "BASE_IDP_ISSUER" ? "not a url" : "sq_live_yourapp" }
            Issue.record("expected invalid_configuration")
        } catch let error as BaseIdPError {
            #expect(error.code == "invalid_configuration")
        }
    }
}

/// ``withBaseIdP(_:)`` with a body on the main actor, where `BaseIdPAuth` lives.
func withBaseIdPOnMainActor(_ body: @escaping @MainActor (BaseIdPHarness) async throws -> Void) async throws {
    try await withBaseIdP { harness in try await body(harness) }
}

extension BaseIdPHarness {
    /// A `BaseIdPAuth` as the guide makes one, over this server, clock and store, with a scripted browser.
    @MainActor
    func makeAuth(
        clientId: String = BaseIdPServer.clientKey, store: (any SessionStore)? = nil,
        browser: any WebAuthenticator = HeadlessUserAgent()
    ) -> BaseIdPAuth {
        BaseIdPAuth(
            config: BaseIdPConfig(clientId: clientId, issuer: server.http.baseURL), store: store ?? fileStore,
            prefersEphemeralSession: false, authenticator: browser, options: options())
    }

    /// The `BaseIdPError` a sign-in throws, as the guide catches it.
    @MainActor
    func signInError(_ auth: BaseIdPAuth, sourceLocation: SourceLocation = #_sourceLocation) async -> BaseIdPError? {
        do {
            _ = try await auth.signIn()
            Issue.record("expected a BaseIdPError", sourceLocation: sourceLocation)
        } catch let error as BaseIdPError {
            return error
        } catch {
            Issue.record("expected a BaseIdPError, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }
}
