import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Issue 17, item 6: with an access group (an app and its extensions), the Keychain store coordinates
/// refreshes across processes through a lease item, and never holds a lock across the refresh request.
@Suite("Store: Keychain refresh lease")
struct KeychainRefreshLockTests {
    private static let group = "TEAM.dev.acme.shared"

    private func store(
        _ keychain: InMemoryKeychain, group: String? = KeychainRefreshLockTests.group,
        timeout: LatchkeyDuration = .seconds(60), now: (@Sendable () -> Int64)? = nil,
        clock: any LatchkeyClock = SystemClock()
    ) -> KeychainRecordStore {
        KeychainRecordStore(
            operations: keychain, service: "dev.latchkey.sessions", accessGroup: group, refreshLockTimeout: timeout,
            now: now ?? RefreshLease.currentMilliseconds, clock: clock)
    }

    @Test("refreshes of one session in several processes sharing the group run one at a time", timeLimit(minutes: 1))
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

    @Test("without an access group, in the app's own app ID group, there is no lease: only the one-time probe")
    func appIDGroupNoLease() async throws {
        let keychain = InMemoryKeychain(defaultGroup: "TEAM.dev.acme.app")
        let store = KeychainRecordStore(
            operations: keychain, service: "dev.latchkey.sessions", accessGroup: nil, bundleIdentifier: "dev.acme.app")
        for _ in 0..<2 {
            _ = try await store.withExclusiveRefresh(key: "acme") { () async throws(AuthError) in 1 }
        }
        #expect(keychain.calls == ["add probe", "delete probe TEAM.dev.acme.app"])
    }

    @Test(
        "without an access group, a default group that may be shared gets the lease",
        arguments: [
            // Keychain Sharing lists a shared group first: the app's items (and its extensions') land there.
            ("TEAM.dev.acme.shared", "dev.acme.app" as String?),
            // A tool without a bundle identifier cannot tell its own group from a shared one.
            ("TEAM.dev.acme.app", nil),
        ])
    func sharedDefaultGroupTakesTheLease(defaultGroup: String, bundleIdentifier: String?) async throws {
        let keychain = InMemoryKeychain(defaultGroup: defaultGroup)
        let store = KeychainRecordStore(
            operations: keychain, service: "dev.latchkey.sessions", accessGroup: nil,
            bundleIdentifier: bundleIdentifier)
        _ = try await store.withExclusiveRefresh(key: "acme") { () async throws(AuthError) in 1 }
        #expect(keychain.calls.contains("add acme.refresh-lease \(defaultGroup)"), "\(keychain.calls)")
        #expect(keychain.items.isEmpty, "the lease and the probe are gone afterwards")
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

    @Test(
        "a live lease of another process makes a refresh wait, then give up with store_unavailable",
        timeLimit(minutes: 1))
    func liveLeaseTimesOut() async throws {
        let keychain = InMemoryKeychain()
        let frozen: Int64 = 1_800_000_000_000
        keychain.put(
            Data(), service: "dev.latchkey.sessions", account: "acme.refresh-lease", group: Self.group,
            label: "latchkey-refresh-lease v1 other \(frozen + 100)")
        let ran = Locked(false)
        // The waits sleep on a manual clock: the 60 s timeout passes when the test moves it.
        let clock = ManualClock()
        let waiter = Task { () async -> AuthError? in
            await thrownAuthError { () async throws(AuthError) in
                try await store(keychain, now: { frozen }, clock: clock).withExclusiveRefresh(key: "acme") {
                    () async throws(AuthError) in ran.withLock { $0 = true }
                }
            }
        }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(59))
        await clock.sleepers(atLeast: 1)  // tried again at 59 s, still live: waits on
        #expect(ran.withLock { $0 } == false)
        clock.advance(by: .seconds(2))
        let error = await waiter.value
        #expect(error?.code == .storeUnavailable)
        #expect(ran.withLock { $0 } == false)
        // The other process's lease is untouched.
        #expect(keychain.items.values.map(\.label) == ["latchkey-refresh-lease v1 other \(frozen + 100)"])
    }

    @Test(
        "two clients sharing the keychain group send one refresh; the other adopts its session", timeLimit(minutes: 1)
    )
    func twoClientsOneRefresh() async throws {
        let keychain = InMemoryKeychain()
        // The lease waits sleep on a manual clock, so the test sees the second client waiting for the lease.
        let leaseClock = ManualClock()
        let shared = store(keychain, timeout: .seconds(3600), clock: leaseClock)
        let harness = try AcmeHarness(store: shared)
        defer { harness.server.stop() }
        try await harness.signIn()
        let extensionClient = try harness.makeClient(store: store(keychain, timeout: .seconds(3600), clock: leaseClock))
        _ = await extensionClient.restore()
        harness.clock.advance(7200)
        // The refresh response is held until the other client waits for the lease.
        harness.backend.holdRefreshes()
        let ended = Watched(0)
        let sessions = [harness.client, extensionClient].map { client in
            Task {
                defer { ended.update { $0 += 1 } }
                return try await client.currentSession()
            }
        }
        await harness.backend.refreshesArrived(atLeast: 1)
        // The other client waits for the lease (or, were the lease broken, sends its own refresh).
        _ = await firstOf(
            { await leaseClock.sleepers(atLeast: 1) }, { await harness.backend.refreshesArrived(atLeast: 2) })
        harness.backend.releaseRefreshes()
        // Wake the waiter until it gets the lease (it sleeps again while the refresh still holds it).
        while ended.value < 2 {
            if await firstOf({ await leaseClock.sleepers(atLeast: 1) }, { await ended.wait { $0 == 2 } }) {
                leaseClock.advance(by: .seconds(1))
            }
        }
        let (one, two) = (try await sessions[0].value, try await sessions[1].value)
        #expect(harness.refreshRequests.count == 1)
        #expect(one.accessToken == two.accessToken)
        #expect(harness.refreshRequests.first?.formBody["refresh_token"] == "rt-1")
    }
}
