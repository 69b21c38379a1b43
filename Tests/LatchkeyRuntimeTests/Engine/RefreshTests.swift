import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Engine: refresh")
struct EngineRefreshTests {
    /// Signs in, then moves the clock past the access token's expiry.
    private func expiredHarness(store: any SessionStore = InMemorySessionStore()) async throws -> AcmeHarness {
        let harness = try AcmeHarness(store: store)
        try await harness.signIn()
        harness.clock.advance(3600 + 1)
        harness.server.resetRecording()
        return harness
    }

    @Test("a fresh token is returned without any request; one inside the leeway is refreshed")
    func leeway() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.clock.advance(3600 - 61)
        #expect(try await harness.client.validAccessToken() == "at-1")
        #expect(harness.refreshRequests.isEmpty)
        harness.clock.advance(2)
        #expect(try await harness.client.validAccessToken() == "at-2")
        let refresh = try #require(harness.refreshRequests.first)
        #expect(
            refresh.formBody == [
                "grant_type": "refresh_token", "refresh_token": "rt-1", "client_id": "acme-app", "audience": "api",
            ])
        #expect(refresh.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(refresh.header("apikey") == "pk_live_123")
    }

    @Test(
        "a refresh naming {redirect_uri} sends the configured redirect URI, and leaves the member out without one",
        arguments: [AcmeHarness.redirect, nil])
    func refreshRedirectURI(redirect: URL?) async throws {
        var spec = AcmeSpec.make()
        spec.requests["refresh"]?.body.append(ParameterSpec("redirect_uri", AcmeSpec.string("{redirect_uri}")))
        let harness = try AcmeHarness(spec: spec, redirectURI: redirect)
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.clock.advance(3600 + 1)
        #expect(try await harness.client.validAccessToken() == "at-2")
        let refresh = try #require(harness.refreshRequests.first)
        #expect(harness.refreshRequests.count == 1)
        #expect(refresh.formBody["redirect_uri"] == redirect?.absoluteString)
        #expect(refresh.formBody["refresh_token"] == "rt-1")
    }

    @Test("concurrent callers share exactly one refresh request", arguments: [100, 1000])
    func singleFlight(callers: Int) async throws {
        let harness = try await expiredHarness()
        defer { harness.server.stop() }
        harness.backend.setRefreshDelay(0.2)
        let client = harness.client
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<callers { group.addTask { try await client.validAccessToken() } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(tokens.count == callers)
        #expect(Set(tokens) == ["at-2"])
        #expect(harness.refreshRequests.count == 1)
    }

    @Test("the rotated refresh token is stored before any caller sees the new access token", timeLimit(minutes: 1))
    func rotationPersistedBeforeUse() async throws {
        let store = SlowStore()
        let harness = try await expiredHarness(store: store)
        defer { harness.server.stop() }
        store.setSaveDelay(0.3)
        let savesBefore = store.savesStarted
        let client = harness.client
        let first = Task { try await client.validAccessToken() }
        await store.waitForSavesStarted(moreThan: savesBefore)
        let second = try await client.validAccessToken()
        #expect(try await harness.storedSession()?["refreshToken"] as? String == "rt-2")
        #expect(second == "at-2")
        #expect(try await first.value == "at-2")
        let stored = try #require(try await harness.storedSession())
        #expect(stored["accessToken"] as? String == "at-2")
        #expect(harness.refreshRequests.count == 1)
    }

    @Test("a response without a refresh token keeps the old one")
    func keepsOldRefreshToken() async throws {
        let harness = try await expiredHarness()
        defer { harness.server.stop() }
        harness.backend.setRotates(false)
        let session = try await harness.client.currentSession()
        #expect(session.accessToken == "at-2")
        #expect(session.refreshToken == "rt-1")
        #expect(try await harness.storedSession()?["refreshToken"] as? String == "rt-1")
    }

    @Test("a failed store write is store_failed, and the new tokens stay in memory")
    func storeFailure() async throws {
        let store = SlowStore()
        let harness = try await expiredHarness(store: store)
        defer { harness.server.stop() }
        store.setFailsSaves(true)
        do {
            _ = try await harness.client.validAccessToken()
            Issue.record("expected store_failed")
        } catch {
            #expect(error.code == .storeFailed)
        }
        #expect(try await harness.client.validAccessToken() == "at-2")
        #expect(harness.refreshRequests.count == 1)
        #expect(harness.client.state.isSignedIn)
    }

    @Test("a rejected refresh clears the session, the store, and publishes signedOut")
    func rejectionClears() async throws {
        let harness = try await expiredHarness()
        defer { harness.server.stop() }
        harness.backend.override("/oauth/token") { _ in
            .json(["error": "invalid_grant", "error_description": "revoked"], status: 400)
        }
        do {
            _ = try await harness.client.validAccessToken()
            Issue.record("expected invalid_grant")
        } catch {
            #expect(error.code == .invalidGrant)
            #expect(error.kind == .rejected)
        }
        #expect(harness.client.state == .signedOut)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
        await expectAuthError(.sessionMissing) { _ = try await harness.client.validAccessToken() }
    }

    @Test("transport failures keep the session", arguments: ["drop", "503"])
    func transportFailureKeeps(failure: String) async throws {
        let harness = try await expiredHarness()
        defer { harness.server.stop() }
        harness.backend.override("/oauth/token") { _ in
            failure == "drop" ? .dropConnection : .json(["error": "unavailable"], status: 503)
        }
        do {
            _ = try await harness.client.validAccessToken()
            Issue.record("expected a transport error")
        } catch {
            #expect(error.kind == .transport)
            #expect(error.code == (failure == "drop" ? .networkError : .serverError))
        }
        #expect(harness.client.state.user?.id == "user-1")
        #expect(try await harness.storedSession()?["refreshToken"] as? String == "rt-1")
        #expect(await harness.client.cachedSession?.refreshToken == "rt-1")
    }

    @Test("a reused refresh token adopts the newer session another process stored")
    func reuseAdoption() async throws {
        let harness = try await expiredHarness()
        defer { harness.server.stop() }
        let extensionClient = try harness.makeClient()
        await extensionClient.restore()
        #expect(try await extensionClient.validAccessToken() == "at-2")
        #expect(try await harness.client.validAccessToken() == "at-2")
        #expect(harness.refreshRequests.map { $0.formBody["refresh_token"] } == ["rt-1"])
        #expect(harness.client.state.isSignedIn)
        #expect(await harness.client.cachedSession?.refreshToken == "rt-2")
    }

    @Test("a reused refresh token with nothing newer in the store signs out")
    func reuseWithoutNewerSession() async throws {
        let harness = try await expiredHarness()
        defer { harness.server.stop() }
        harness.backend.override("/oauth/token") { _ in
            .json(["error_code": "refresh_token_already_used", "msg": "Already Used"], status: 400)
        }
        await expectAuthError(.sessionExpired) { _ = try await harness.client.validAccessToken() }
        #expect(harness.client.state == .signedOut)
    }

    @Test("a sign-out racing a slow refresh stays signed out, with an empty store", timeLimit(minutes: 1))
    func signOutRacesRefresh() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        // The refresh response is held at the server until the sign-out is done.
        harness.backend.holdRefreshes()
        let client = harness.client
        let refresh = Task { try await client.currentSession(forceRefresh: true) }
        await harness.backend.refreshesArrived(atLeast: 1)
        try await client.signOut()
        harness.backend.releaseRefreshes()
        let result = await refresh.result
        #expect(throws: AuthError.self) { try result.get() }
        // The late response has been handled (dropped) by now: whatever it could have stored or published is
        // in place before the checks below.
        await harness.logs.waitForRecord(containing: "discarded")
        #expect(client.state == .signedOut)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
        #expect(await client.cachedSession == nil)
        #expect(harness.requests("/logout").first?.header("Authorization") == "Bearer at-1")
        #expect(harness.logs.all.contains { $0.message.contains("discarded") })
    }

    @Test("a refresh that lands after a user switch is discarded", timeLimit(minutes: 1))
    func refreshAfterUserSwitch() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        // The refresh response is held at the server until the second sign-in is done.
        harness.backend.holdRefreshes()
        let client = harness.client
        let refresh = Task { try await client.currentSession(forceRefresh: true) }
        await harness.backend.refreshesArrived(atLeast: 1)
        let second = try await harness.signIn()
        harness.backend.releaseRefreshes()
        _ = await refresh.result
        #expect(await client.cachedSession?.accessToken == second.accessToken)
        #expect(try await harness.storedSession()?["accessToken"] as? String == second.accessToken)
    }

    @Test("an expired session without a refresh token is over")
    func expiredWithoutRefreshToken() async throws {
        var spec = AcmeSpec.make()
        spec.flows.refresh = nil
        let harness = try AcmeHarness(spec: spec)
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.clock.advance(7200)
        await expectAuthError(.sessionExpired) { _ = try await harness.client.validAccessToken() }
        #expect(harness.client.state == .signedOut)
    }
}
