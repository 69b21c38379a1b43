import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Collects every state a client publishes.
final class StateRecorder: Sendable {
    private let states = Watched<[AuthState]>([])
    private let task: Locked<Task<Void, Never>?> = Locked(nil)

    init(_ client: AuthClient) {
        let stream = client.stateUpdates()
        let started = Task {
            for await state in stream { self.append(state) }
        }
        task.withLock { $0 = started }
    }

    private func append(_ state: AuthState) { states.update { $0.append(state) } }

    var all: [AuthState] { states.value }

    /// Waits until the last recorded state is `state` (or the waiting task is cancelled: the suite's time
    /// limit), then stops recording.
    func settle(on state: AuthState) async {
        await states.wait { $0.last == state }
        task.withLock { $0?.cancel() }
    }
}

/// Issue 8, part 2: concurrent callers, sign-out and user switches racing a refresh.
@Suite("Reliability: refresh races", timeLimit(minutes: 10))
struct ReliabilityRefreshRaceTests {
    private func fileHarness(_ scratch: ScratchDirectory) throws -> AcmeHarness {
        try AcmeHarness(store: FileSessionStore(directory: scratch.child("store")))
    }

    @Test("1,000 concurrent validAccessToken() calls on an expired session send exactly one refresh, every round")
    func thousandCallers() async throws {
        let scratch = ScratchDirectory("races")
        defer { scratch.remove() }
        let harness = try fileHarness(scratch)
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.backend.setRefreshDelay(0.05)
        let callers = 1000
        let rounds = Stress.count(3, stress: 20)
        let client = harness.client
        var previousRefreshToken = "rt-1"
        for round in 1...rounds {
            harness.clock.advance(3600 + 1)
            harness.server.resetRecording()
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<callers { group.addTask { try await client.validAccessToken() } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            let expected = "at-\(round + 1)"
            #expect(tokens.count == callers)
            #expect(Set(tokens) == [expected], "round \(round)")
            #expect(harness.refreshRequests.count == 1, "round \(round)")
            #expect(harness.refreshRequests.first?.formBody["refresh_token"] == previousRefreshToken)
            let stored = try #require(try await harness.storedSession())
            #expect(stored["accessToken"] as? String == expected)
            previousRefreshToken = "rt-\(round + 1)"
            #expect(stored["refreshToken"] as? String == previousRefreshToken)
        }
        #expect(harness.client.state.isSignedIn)
        reportFigure(
            "concurrent callers", "\(rounds) rounds x \(callers) validAccessToken() calls, 1 refresh request each")
    }

    @Test("sign-out racing a refresh: signed out and stays out, store empty, the late result discarded")
    func signOutRacingRefresh() async throws {
        let iterations = Stress.count(24, stress: 300)
        var discardedLate = 0
        var joined = 0
        for iteration in 0..<iterations {
            let scratch = ScratchDirectory("signout-race")
            defer { scratch.remove() }
            let harness = try fileHarness(scratch)
            defer { harness.server.stop() }
            try await harness.signIn()
            let client = harness.client
            let recorder = StateRecorder(client)
            // Even iterations: a forced refresh of a fresh session (an app retrying after a 401); the server
            // holds the refresh until the sign-out returned. Odd ones: an expired session, random delays on
            // both sides (sign-out then joins the refresh to revoke with the newest token).
            let forced = iteration % 2 == 0
            let gate = Gate()
            if forced {
                let backend = harness.backend
                backend.override("/oauth/token") { request in
                    await gate.wait()
                    return backend.tokens(rotating: request.formBody["refresh_token"])
                }
            } else {
                gate.raise()
                harness.backend.setRefreshDelay(Double.random(in: 0...0.04))
                harness.clock.advance(3600 + 1)
            }
            let refresh = Task { try await client.currentSession(forceRefresh: forced) }
            if forced {
                await harness.refreshRequestArrived()
            } else {
                try await LatchkeyDuration.sleep(.milliseconds(Int.random(in: 0...40)))
            }
            try await client.signOut()
            gate.raise()
            _ = await refresh.result
            // Let any straggler land, then check that nothing came back.
            try await LatchkeyDuration.sleep(.milliseconds(forced ? 20 : 60))
            await recorder.settle(on: .signedOut)
            #expect(client.state == .signedOut, "iteration \(iteration)")
            #expect(
                try await harness.store.load(key: harness.client.storeKey) == nil,
                "iteration \(iteration): the store is not empty")
            #expect(await client.cachedSession == nil)
            await expectAuthError(.sessionMissing) { _ = try await client.validAccessToken() }
            let states = recorder.all
            if let out = states.firstIndex(of: .signedOut) {
                #expect(states[out...].allSatisfy { $0 == .signedOut }, "iteration \(iteration): \(states)")
            } else {
                Issue.record("iteration \(iteration): signedOut was never published: \(states)")
            }
            let relaunched = try harness.makeClient()
            #expect(await relaunched.restore() == .signedOut)
            let late = harness.logs.all.contains { $0.message.contains("discarded") }
            if forced {
                #expect(late, "iteration \(iteration): the refresh result was not discarded")
            } else if harness.requests("/logout").first?.header("Authorization") == "Bearer at-2" {
                joined += 1
            }
            if late { discardedLate += 1 }
        }
        #expect(discardedLate >= iterations / 2)
        reportFigure(
            "sign-out races",
            "\(iterations), late refresh results discarded: \(discardedLate), "
                + "sign-outs that joined the refresh and revoked its token: \(joined), sessions resurrected: 0")
    }

    @Test("a user switch during a refresh: the late result is discarded, the new user stays")
    func userSwitchDuringRefresh() async throws {
        let iterations = Stress.count(16, stress: 200)
        var discardedLate = 0
        for iteration in 0..<iterations {
            let scratch = ScratchDirectory("switch-race")
            defer { scratch.remove() }
            let harness = try fileHarness(scratch)
            defer { harness.server.stop() }
            try await harness.signIn()
            let client = harness.client
            harness.backend.override("/token") { request in
                guard (request.jsonBody as? [String: Any])?["username"] as? String == "bob@example.com" else {
                    return .json(["error_code": "invalid_credentials"], status: 400)
                }
                return .json([
                    "access_token": "bob-at", "refresh_token": "bob-rt", "token_type": "bearer", "expires_in": 3600,
                    "user": ["id": "user-2", "email": "bob@example.com"],
                ])
            }
            // Even iterations: the server holds the refresh until the new user is signed in. Odd ones: random.
            let deterministic = iteration % 2 == 0
            let gate = Gate()
            if deterministic {
                let backend = harness.backend
                backend.override("/oauth/token") { request in
                    await gate.wait()
                    return backend.tokens(rotating: request.formBody["refresh_token"])
                }
            } else {
                gate.raise()
                harness.backend.setRefreshDelay(Double.random(in: 0...0.04))
            }
            let recorder = StateRecorder(client)
            let refresh = Task { try await client.currentSession(forceRefresh: true) }
            if deterministic {
                await harness.refreshRequestArrived()
            } else {
                try await LatchkeyDuration.sleep(.milliseconds(Int.random(in: 0...40)))
            }
            let bob = try await client.signIn(username: "bob@example.com", password: "whatever")
            gate.raise()
            _ = await refresh.result
            try await LatchkeyDuration.sleep(.milliseconds(deterministic ? 20 : 60))
            await recorder.settle(on: .signedIn(bob.userOrPlaceholder))
            #expect(bob.user?.id == "user-2")
            #expect(await client.cachedSession == bob, "iteration \(iteration)")
            #expect(client.state == .signedIn(bob.userOrPlaceholder), "iteration \(iteration)")
            let stored = try #require(try await harness.storedSession())
            #expect(
                stored["accessToken"] as? String == "bob-at",
                "iteration \(iteration): \(stored["accessToken"] ?? "nil")")
            #expect(try await client.validAccessToken() == "bob-at")
            let states = recorder.all
            if let switched = states.firstIndex(of: .signedIn(bob.userOrPlaceholder)) {
                #expect(
                    states[switched...].allSatisfy { $0.user?.id != "user-1" }, "iteration \(iteration): \(states)")
            }
            let relaunched = try harness.makeClient()
            #expect(await relaunched.restore().user?.id == "user-2")
            let late = harness.logs.all.contains { $0.message.contains("discarded") }
            if deterministic { #expect(late, "iteration \(iteration): the refresh result was not discarded") }
            if late { discardedLate += 1 }
        }
        #expect(discardedLate >= iterations / 2)
        reportFigure("user-switch races", "\(iterations), late refresh results discarded: \(discardedLate)")
    }

    @Test("without the lock's help, a reused refresh token still adopts what another client stored meanwhile")
    func reuseFallbackAdoptsNewerSession() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.clock.advance(3600 + 1)
        let extensionClient = try harness.makeClient()
        await extensionClient.restore()
        let backend = harness.backend
        let first = Locked(true)
        // The main client's refresh reaches the server only after the extension used the same refresh token
        // (after the main client re-read the store): the server reports reuse, the main client adopts.
        backend.override("/oauth/token") { request in
            let token = request.formBody["refresh_token"] ?? ""
            guard
                first.withLock({ value in
                    defer { value = false }
                    return value
                })
            else {
                return backend.tokens(rotating: token)
            }
            _ = try? await extensionClient.currentSession(forceRefresh: true)
            return .json(["error_code": "refresh_token_already_used", "msg": "Already Used"], status: 400)
        }
        #expect(try await harness.client.validAccessToken() == "at-2")
        #expect(harness.client.state.isSignedIn)
        #expect(await harness.client.cachedSession?.refreshToken == "rt-2")
        #expect(harness.refreshRequests.map { $0.formBody["refresh_token"] } == ["rt-1", "rt-1"])
        #expect(harness.logs.all.contains { $0.message.contains("already used; adopting") })
    }
}
