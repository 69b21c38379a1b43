import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Proactive refresh against the Acme server on 127.0.0.1: the access token lives 3,600 s on the test clock, the
/// policy checks every 20 ms and refreshes 90 s before expiry.
@Suite("Engine: automatic refresh")
struct AutomaticRefreshTests {
    private static let policy = AutomaticRefresh(interval: .milliseconds(20), margin: .seconds(90))

    /// Waits up to a minute (generous: a loaded machine runs the checks late) for a condition checked every 10 ms.
    private func eventually(_ condition: () async -> Bool) async throws -> Bool {
        for _ in 0..<6000 {
            if await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return await condition()
    }

    @Test("off unless configured: a token inside the margin is not refreshed until someone asks")
    func offByDefault() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.clock.advance(3600 - 30)
        try await Task.sleep(for: .milliseconds(200))
        #expect(await harness.client.isRefreshingAutomatically == false)
        #expect(harness.refreshRequests.isEmpty)
    }

    @Test("configured: refreshes once the token is within the margin, never before, and only once")
    func refreshesInsideTheMargin() async throws {
        let harness = try AcmeHarness(automaticRefresh: Self.policy)
        defer { harness.server.stop() }
        try await harness.signIn()
        #expect(await harness.client.isRefreshingAutomatically)
        harness.clock.advance(3600 - 200)
        try await Task.sleep(for: .milliseconds(200))
        #expect(harness.refreshRequests.isEmpty)

        harness.clock.advance(150)
        #expect(try await eventually { await harness.client.cachedSession?.accessToken == "at-2" })
        let refresh = try #require(harness.refreshRequests.first)
        #expect(refresh.method == "POST")
        #expect(refresh.formBody["grant_type"] == "refresh_token")
        #expect(refresh.formBody["refresh_token"] == "rt-1")
        #expect(try await harness.storedSession()?["refreshToken"] as? String == "rt-2")

        // The new token is fresh for another hour: further checks send nothing.
        try await Task.sleep(for: .milliseconds(200))
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
        harness.clock.advance(3600 - 30)
        #expect(try await eventually { harness.refreshRequests.count >= 2 })
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
        harness.clock.advance(3600 - 30)
        #expect(try await eventually { harness.client.state == .signedOut })
        #expect(try await eventually { (try? await harness.store.load(key: harness.client.storeKey)) == nil })
        try await Task.sleep(for: .milliseconds(200))
        #expect(harness.refreshRequests.count == 1)
    }

    @Test("stopped: no check runs, whatever the clock says")
    func stopEndsTheChecks() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        await harness.client.startAutomaticRefresh(Self.policy)
        #expect(await harness.client.isRefreshingAutomatically)
        await harness.client.stopAutomaticRefresh()
        #expect(await harness.client.isRefreshingAutomatically == false)
        harness.clock.advance(3600 - 30)
        try await Task.sleep(for: .milliseconds(200))
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
        try await Task.sleep(for: .milliseconds(100))
        #expect(harness.server.requests.isEmpty)
        harness.clock.advance(3600 - 30)
        #expect(try await eventually { await relaunched.cachedSession?.accessToken == "at-2" })
        #expect(harness.refreshRequests.count == 1)
    }

    @Test("a signed-out client checks without sending anything")
    func signedOutSendsNothing() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        await harness.client.startAutomaticRefresh(Self.policy)
        harness.clock.advance(7200)
        try await Task.sleep(for: .milliseconds(150))
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
