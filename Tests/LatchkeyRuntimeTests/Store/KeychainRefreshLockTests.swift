import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Synchronization
import Testing

/// Issue 17, item 6: with an access group (an app and its extensions), the Keychain store coordinates
/// refreshes across processes through a lease item, and never holds a lock across the refresh request.
@Suite("Store: Keychain refresh lease")
struct KeychainRefreshLockTests {
    private static let group = "TEAM.dev.acme.shared"

    private func store(
        _ keychain: InMemoryKeychain, group: String? = KeychainRefreshLockTests.group,
        timeout: Duration = .seconds(60), now: (@Sendable () -> Int64)? = nil, clock: any LatchkeyClock = SystemClock()
    ) -> KeychainRecordStore {
        KeychainRecordStore(
            operations: keychain, service: "dev.latchkey.sessions", accessGroup: group, refreshLockTimeout: timeout,
            now: now ?? RefreshLease.currentMilliseconds, clock: clock)
    }

    @Test("refreshes of one session in several processes sharing the group run one at a time", .timeLimit(.minutes(1)))
    func oneAtATime() async throws {
        let keychain = InMemoryKeychain()
        // Each store value is a process; each holder stays inside until all the others have tried and sleep on
        // the manual clock.
        let clock = ManualClock()
        let stores = (0..<6).map { _ in store(keychain, timeout: .seconds(3600), clock: clock) }
        let (most, entries) = try await ExclusionProbe(clock: clock, users: stores.count).run { index, body in
            try await stores[index].withExclusiveRefresh(key: "acme") { () async throws(AuthError) in await body() }
        }
        #expect(most == 1)
        #expect(entries == 6)
        // The lease is gone afterwards; no session record was touched.
        #expect(keychain.items.isEmpty)
    }

    @Test("without an access group (one process) there is no lease and no keychain call")
    func noGroupNoLease() async throws {
        let keychain = InMemoryKeychain()
        _ = try await store(keychain, group: nil).withExclusiveRefresh(key: "acme") { () async throws(AuthError) in 1 }
        #expect(keychain.calls.isEmpty)
    }

    @Test(
        "a dead holder's lease is taken over: expired, unreadable, or further ahead than a lease can last",
        arguments: [
            "latchkey-refresh-lease v1 dead 1000", "garbage", "latchkey-refresh-lease v1 skewed 99999999999999",
        ])
    func deadLeaseIsTakenOver(label: String) async throws {
        let keychain = InMemoryKeychain()
        keychain.put(
            Data(), service: "dev.latchkey.sessions", account: "acme.refresh-lease", group: Self.group, label: label)
        let ran = try await store(keychain).withExclusiveRefresh(key: "acme") { () async throws(AuthError) in true }
        #expect(ran)
        #expect(keychain.items.isEmpty)
    }

    @Test("a live lease of another process makes a refresh wait, then give up with store_unavailable")
    func liveLeaseTimesOut() async throws {
        let keychain = InMemoryKeychain()
        let frozen: Int64 = 1_800_000_000_000
        keychain.put(
            Data(), service: "dev.latchkey.sessions", account: "acme.refresh-lease", group: Self.group,
            label: "latchkey-refresh-lease v1 other \(frozen + 100)")
        let ran = Mutex(false)
        let error = await #expect(throws: AuthError.self) {
            try await store(keychain, timeout: .milliseconds(200), now: { frozen }).withExclusiveRefresh(key: "acme") {
                () async throws(AuthError) in ran.withLock { $0 = true }
            }
        }
        #expect(error?.code == .storeUnavailable)
        #expect(ran.withLock { $0 } == false)
        // The other process's lease is untouched.
        #expect(keychain.items.values.map(\.label) == ["latchkey-refresh-lease v1 other \(frozen + 100)"])
    }

    @Test("two clients sharing the keychain group send one refresh; the other adopts its session")
    func twoClientsOneRefresh() async throws {
        let keychain = InMemoryKeychain()
        let shared = store(keychain)
        let harness = try AcmeHarness(store: shared)
        defer { harness.server.stop() }
        try await harness.signIn()
        let extensionClient = try harness.makeClient(store: store(keychain))
        _ = await extensionClient.restore()
        harness.clock.advance(7200)
        harness.backend.setRefreshDelay(0.3)
        let app = harness.client
        async let first = app.currentSession()
        async let second = extensionClient.currentSession()
        let (one, two) = try await (first, second)
        #expect(harness.refreshRequests.count == 1)
        #expect(one.accessToken == two.accessToken)
        #expect(harness.refreshRequests.first?.formBody["refresh_token"] == "rt-1")
    }
}
