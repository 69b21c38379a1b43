import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// An in-memory store whose writes can be slowed down or made to fail.
final class SlowStore: SessionStore {
    private let inner = InMemorySessionStore()
    private let settings = Locked<(delay: Double, fails: Bool)>((0, false))
    private let started = Watched(0)
    private let hold = Locked<Gate?>(nil)
    private let cancelledSaves = Locked(0)

    /// How many saves ran in a cancelled task (a store that honoured cancellation would have dropped them).
    var savesInCancelledTasks: Int { cancelledSaves.withLock { $0 } }

    /// Makes every save wait until `gate` is raised.
    func holdSaves(until gate: Gate) { hold.withLock { $0 = gate } }

    /// How many saves have begun.
    var savesStarted: Int { started.value }

    /// Returns once more than `count` saves have begun (or the waiting task is cancelled).
    func waitForSavesStarted(moreThan count: Int) async { await started.wait { $0 > count } }

    func setSaveDelay(_ seconds: Double) { settings.withLock { $0.delay = seconds } }

    func setFailsSaves(_ fails: Bool) { settings.withLock { $0.fails = fails } }

    func load(key: String) async throws(AuthError) -> Data? { try await inner.load(key: key) }

    func save(_ data: Data, key: String) async throws(AuthError) {
        started.update { $0 += 1 }
        let (delay, fails) = settings.withLock { $0 }
        if delay > 0 { try? await LatchkeyDuration.sleep(.milliseconds(Int(delay * 1000))) }
        if let gate = hold.withLock({ $0 }) { await gate.wait() }
        if Task.isCancelled { cancelledSaves.withLock { $0 += 1 } }
        if fails { throw AuthError(.storeFailed, "disk full") }
        try await inner.save(data, key: key)
    }

    func remove(key: String) async throws(AuthError) { try await inner.remove(key: key) }
}

/// A store whose reads always fail, like a locked keychain.
struct LockedStore: SessionStore {
    func load(key: String) async throws(AuthError) -> Data? { throw AuthError(.storeUnavailable, "locked") }
    func save(_ data: Data, key: String) async throws(AuthError) { throw AuthError(.storeFailed, "locked") }
    func remove(key: String) async throws(AuthError) { throw AuthError(.storeFailed, "locked") }
}
