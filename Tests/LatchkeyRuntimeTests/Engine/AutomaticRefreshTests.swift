import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Proactive refresh against the Acme server on 127.0.0.1: the access token lives 3,600 s on the harness's
/// ``ManualClock``, the policy checks every 30 s and refreshes 90 s before expiry. The checks sleep on that
/// clock, so the tests move time by hand and wait, without polling, for the check loop to sleep again (which it
/// does once the check, and the refresh it sent, finished).
@Suite("Engine: automatic refresh", timeLimit(minutes: 1))
struct AutomaticRefreshTests {
    private static let policy = AutomaticRefresh(interval: .seconds(30), margin: .seconds(90))

    /// Moves the clock and returns once the check that came due (if any) has run and the loop sleeps again.
    private func advance(_ harness: AcmeHarness, _ seconds: Double) async {
        harness.clock.advance(seconds)
        await harness.clock.manual.sleepers(atLeast: 1)
    }

    @Test("off unless configured: a token inside the margin is not refreshed until someone asks")
    func offByDefault() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.clock.advance(3600 - 30)
        #expect(await harness.client.isRefreshingAutomatically == false)
        #expect(harness.clock.manual.sleeperCount == 0)
        #expect(harness.refreshRequests.isEmpty)
    }

    @Test("configured: refreshes once the token is within the margin, never before, and only once")
    func refreshesInsideTheMargin() async throws {
        let harness = try AcmeHarness(automaticRefresh: Self.policy)
        defer { harness.server.stop() }
        try await harness.signIn()
        #expect(await harness.client.isRefreshingAutomatically)
        await harness.clock.manual.sleepers(atLeast: 1)
        await advance(harness, 3600 - 200)
        #expect(harness.refreshRequests.isEmpty)

        await advance(harness, 150)
        #expect(await harness.client.cachedSession?.accessToken == "at-2")
        let refresh = try #require(harness.refreshRequests.first)
        #expect(refresh.method == "POST")
        #expect(refresh.formBody["grant_type"] == "refresh_token")
        #expect(refresh.formBody["refresh_token"] == "rt-1")
        #expect(try await harness.storedSession()?["refreshToken"] as? String == "rt-2")

        // The new token is fresh for another hour: further checks send nothing.
        await advance(harness, 30)
        await advance(harness, 30)
        #expect(harness.refreshRequests.count == 1)
        #expect(try await harness.client.validAccessToken() == "at-2")
        #expect(harness.refreshRequests.count == 1)
    }

    @Test("a transport failure keeps the session and is retried at the next check")
    func transportFailureRetries() async throws {
        let harness = try AcmeHarness(automaticRefresh: Self.policy)
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.backend.override("/oauth/token") { _ in .json(["error": "unavailable"], status: 503) }
        await harness.clock.manual.sleepers(atLeast: 1)
        await advance(harness, 3600 - 30)
        #expect(harness.refreshRequests.count == 1)
        await advance(harness, 10)
        #expect(harness.refreshRequests.count == 1, "no check before the interval is over")
        await advance(harness, 20)
        #expect(harness.refreshRequests.count == 2)
        #expect(harness.client.state.isSignedIn)
        #expect(await harness.client.cachedSession?.refreshToken == "rt-1")
        #expect(try await harness.storedSession()?["refreshToken"] as? String == "rt-1")
        #expect(harness.logs.all.contains { $0.message.contains("automatic refresh failed (server_error)") })
    }

    @Test("a rejection signs out, and the checks that follow send nothing")
    func rejectionSignsOut() async throws {
        let harness = try AcmeHarness(automaticRefresh: Self.policy)
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.backend.override("/oauth/token") { _ in
            .json(["error": "invalid_grant", "error_description": "revoked"], status: 400)
        }
        await harness.clock.manual.sleepers(atLeast: 1)
        await advance(harness, 3600 - 30)
        #expect(harness.client.state == .signedOut)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
        await advance(harness, 30)
        await advance(harness, 30)
        #expect(harness.refreshRequests.count == 1)
    }

    @Test("stopped: no check runs, whatever the clock says")
    func stopEndsTheChecks() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        await harness.client.startAutomaticRefresh(Self.policy)
        #expect(await harness.client.isRefreshingAutomatically)
        await harness.clock.manual.sleepers(atLeast: 1)
        await harness.client.stopAutomaticRefresh()
        #expect(await harness.client.isRefreshingAutomatically == false)
        #expect(harness.clock.manual.sleeperCount == 0, "stopping cancels the sleeping check")
        harness.clock.advance(3600 - 30)
        #expect(harness.clock.manual.sleeperCount == 0)
        #expect(harness.refreshRequests.isEmpty)
    }

    @Test("a client restored on launch starts its configured refresh without any request")
    func restoreStartsTheChecks() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        let relaunched = try harness.makeClient(automaticRefresh: Self.policy)
        #expect(await relaunched.isRefreshingAutomatically == false)
        harness.server.resetRecording()
        #expect(await relaunched.restore().isSignedIn)
        #expect(await relaunched.isRefreshingAutomatically)
        await harness.clock.manual.sleepers(atLeast: 1)
        #expect(harness.server.requests.isEmpty)
        await advance(harness, 3600 - 30)
        #expect(await relaunched.cachedSession?.accessToken == "at-2")
        #expect(harness.refreshRequests.count == 1)
    }

    @Test("a signed-out client checks without sending anything")
    func signedOutSendsNothing() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        await harness.client.startAutomaticRefresh(Self.policy)
        await harness.clock.manual.sleepers(atLeast: 1)
        await advance(harness, 7200)
        await advance(harness, 30)
        #expect(harness.server.requests.isEmpty)
    }

    @Test("the policy clamps its interval to 10 ms and its margin to zero")
    func policyBounds() {
        let policy = AutomaticRefresh(interval: .zero, margin: .seconds(-5))
        #expect(policy.interval == .milliseconds(10))
        #expect(policy.margin == .zero)
        #expect(AutomaticRefresh.standard == AutomaticRefresh(interval: .seconds(30), margin: .seconds(90)))
    }
}
