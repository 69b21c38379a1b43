import Foundation
import LatchkeyPlatform
import LatchkeyTokens

/// A cross-process refresh lock in a shared keychain access group: a lease item that processes claim with
/// `SecItemAdd` (atomic: a second add gets `errSecDuplicateItem`) and take over, once expired, with a
/// `SecItemUpdate` that matches the exact lease they saw (a compare-and-swap on the item's label).
///
/// The keychain holds no lock while the refresh request runs, so a suspended app or extension blocks nobody
/// for longer than one lease, and a crashed holder's lease simply expires. The refresh (30 s request timeout)
/// must end within the lease (the store's refresh lock timeout, 60 s by default).
struct KeychainRefreshLock: Sendable {
    let operations: any KeychainOperations
    /// The lease item (its label and data hold the lease text).
    let query: KeychainQuery
    /// How long a lease lasts, and how long to wait for another process's.
    let timeout: LatchkeyDuration
    let now: @Sendable () -> Int64
    let queue: BlockingQueue
    /// The clock the waits between attempts sleep on, and the timeout is measured by.
    var clock: any LatchkeyClock = SystemClock()

    /// The lease item's account for a record key.
    static func account(forKey key: String) -> String { key + ".refresh-lease" }

    /// Runs `body` while holding the lease, and gives it up afterwards, whether `body` returns or throws.
    /// - Throws: `store_unavailable` when the keychain fails, another process keeps a live lease past the
    ///   timeout, or the waiting task is cancelled; otherwise what `body` throws.
    func withLock<T: Sendable>(_ body: @Sendable () async throws(AuthError) -> T) async throws(AuthError) -> T {
        let lease = try await acquire()
        do {
            let result = try await body()
            await release(lease)
            return result
        } catch {
            await release(lease)
            throw error
        }
    }

    /// The outcome of one look at the lease item.
    private enum Attempt: Sendable {
        case acquired
        case retry
    }

    private func acquire() async throws(AuthError) -> RefreshLease {
        try await RefreshLease.claim(
            timeout: timeout, now: now, firstPause: .milliseconds(2), longestPause: .milliseconds(32), clock: clock
        ) { lease, longest throws(AuthError) in
            let attempt = try await queue.run { () throws(AuthError) in try self.attempt(lease, longest: longest) }
            if case .acquired = attempt { return true }
            return false
        }
    }

    /// Claims a free lease or replaces a dead one; `.retry` when someone else's is live or a race was lost.
    private func attempt(_ lease: RefreshLease, longest: Int64) throws(AuthError) -> Attempt {
        let text = lease.encoded
        let added = operations.add(query, data: Data(text.utf8), label: text)
        if added == KeychainStatus.success { return .acquired }
        guard added == KeychainStatus.duplicateItem else { throw KeychainStatusMapping.error(added, during: .lock) }
        let (status, item) = operations.read(query)
        if status == KeychainStatus.itemNotFound { return .retry }
        guard status == KeychainStatus.success else { throw KeychainStatusMapping.error(status, during: .lock) }
        guard let found = item?.label else {
            // Not a lease Latchkey wrote (no label): delete it; the next add decides who gets the lease.
            _ = operations.delete(query)
            return .retry
        }
        switch RefreshLease.decide(found: found, now: now(), longest: longest) {
        case .wait:
            return .retry
        case .claim, .replace:
            // Replace exactly the lease that was seen: if another process replaced it first, nothing matches.
            var seen = query
            seen.label = found
            let swapped = operations.update(seen, data: Data(text.utf8), label: text, accessGroup: nil)
            if swapped == KeychainStatus.success { return .acquired }
            guard swapped == KeychainStatus.itemNotFound else {
                throw KeychainStatusMapping.error(swapped, during: .lock)
            }
            return .retry
        }
    }

    /// Deletes the lease if it is still ours (best effort: an expired lease someone took over is theirs).
    private func release(_ lease: RefreshLease) async {
        var query = self.query
        query.label = lease.encoded
        let mine = query
        _ = try? await queue.run { () throws(AuthError) in _ = self.operations.delete(mine) }
    }
}
