import Foundation
import LatchkeyPlatform

/// The Keychain store's policy over ``KeychainOperations``: what `KeychainSessionStore` does on Apple
/// platforms, and what the Linux tests run against an in-memory keychain.
///
/// - Records are generic passwords: service ``service``, account = the record's key.
/// - Two writers racing: the second `SecItemAdd` gets `errSecDuplicateItem` and becomes an update.
/// - With an ``accessGroup``, a record written before the group was set (in the app's default group) is moved
///   into the group when it is first missed there, so the user stays signed in; a removal removes the key in
///   every group the app can reach, so a moved-away copy never brings a signed-out session back.
/// - With an ``accessGroup`` (an app and its extensions), refreshes are coordinated by a lease item
///   (``KeychainRefreshLock``): no lock is held across the refresh request.
/// - Every call runs on a serial dispatch queue, never on Swift's cooperative pool.
package struct KeychainRecordStore: SessionStore {
    /// The keychain service.
    package let service: String
    /// The access group shared with extensions, if any.
    package let accessGroup: String?
    /// How long a refresh waits for another process's refresh, and how long a lease lasts.
    package let refreshLockTimeout: LatchkeyDuration
    private let operations: any KeychainOperations
    private let now: @Sendable () -> Int64
    private let clock: any LatchkeyClock

    /// Creates the policy over a keychain.
    /// - Parameters:
    ///   - operations: The keychain.
    ///   - service: The keychain service.
    ///   - accessGroup: The access group shared with extensions, if any.
    ///   - refreshLockTimeout: How long a refresh lease lasts and a refresh waits for another one.
    ///   - now: The wall clock in milliseconds since 1970 (shared by processes).
    ///   - clock: The clock the refresh lease's waits sleep on, and its timeout is measured by (default
    ///     ``SystemClock``).
    package init(
        operations: any KeychainOperations, service: String, accessGroup: String?,
        refreshLockTimeout: LatchkeyDuration = .seconds(60),
        now: @escaping @Sendable () -> Int64 = RefreshLease.currentMilliseconds,
        clock: any LatchkeyClock = SystemClock()
    ) {
        self.operations = operations
        self.service = service
        self.accessGroup = accessGroup
        self.refreshLockTimeout = refreshLockTimeout
        self.now = now
        self.clock = clock
    }

    private static let queue = BlockingQueue(label: "dev.latchkey.keychain-session-store")

    private func query(_ key: String, group: String?? = .none) -> KeychainQuery {
        KeychainQuery(service: service, account: key, accessGroup: group ?? accessGroup)
    }

    /// Reads a record; moves one written before ``accessGroup`` was set into the group.
    package func load(key: String) async throws(AuthError) -> Data? {
        try await KeychainRecordStore.queue.run { () throws(AuthError) in try self.loadNow(key: key) }
    }

    /// Writes a record; a racing writer's `errSecDuplicateItem` becomes an update.
    package func save(_ data: Data, key: String) async throws(AuthError) {
        try await KeychainRecordStore.queue.run { () throws(AuthError) in try self.saveNow(data, key: key) }
    }

    /// Removes the record in every access group the app can reach.
    package func remove(key: String) async throws(AuthError) {
        try await KeychainRecordStore.queue.run { () throws(AuthError) in
            let status = self.operations.delete(self.query(key, group: .some(nil)))
            guard status == KeychainStatus.success || status == KeychainStatus.itemNotFound else {
                throw KeychainStatusMapping.error(status, during: .delete)
            }
        }
    }

    /// Runs a refresh under the key's refresh lease when the store is shared (``accessGroup`` set); at once
    /// otherwise (only the app reads its own keychain items).
    package func withExclusiveRefresh<T: Sendable>(
        key: String, _ body: @Sendable () async throws(AuthError) -> T
    ) async throws(AuthError) -> T {
        guard accessGroup != nil else { return try await body() }
        let lock = KeychainRefreshLock(
            operations: operations, query: query(KeychainRefreshLock.account(forKey: key)),
            timeout: refreshLockTimeout, now: now, queue: KeychainRecordStore.queue, clock: clock)
        return try await lock.withLock(body)
    }

    func loadNow(key: String) throws(AuthError) -> Data? {
        let (status, item) = operations.read(query(key))
        switch status {
        case KeychainStatus.success:
            return item?.data
        case KeychainStatus.itemNotFound:
            return try migrateLegacy(key: key)
        default:
            throw KeychainStatusMapping.error(status, during: .read)
        }
    }

    func saveNow(_ data: Data, key: String) throws(AuthError) {
        // Update, else add; an add that loses a race to another writer's add is retried as an update.
        for _ in 0..<4 {
            let updated = operations.update(query(key), data: data, label: nil, accessGroup: nil)
            if updated == KeychainStatus.success { return }
            guard updated == KeychainStatus.itemNotFound else {
                throw KeychainStatusMapping.error(updated, during: .write)
            }
            let added = operations.add(query(key), data: data, label: nil)
            if added == KeychainStatus.success {
                // The first write into the group: a copy left in another group would come back later.
                removeLegacyCopies(key: key)
                return
            }
            guard added == KeychainStatus.duplicateItem else {
                throw KeychainStatusMapping.error(added, during: .write)
            }
        }
        throw AuthError(.storeFailed, "Keychain write kept racing another writer; try again.")
    }

    /// Moves the key's record from another group into ``accessGroup``; `nil` when there is none.
    private func migrateLegacy(key: String) throws(AuthError) -> Data? {
        guard let accessGroup else { return nil }
        let (status, groups) = operations.accessGroups(query(key, group: .some(nil)))
        guard status == KeychainStatus.success, let legacy = groups.sorted().first(where: { $0 != accessGroup })
        else { return nil }
        let moved = operations.update(query(key, group: legacy), data: nil, label: nil, accessGroup: accessGroup)
        if moved == KeychainStatus.duplicateItem {
            // Another process wrote the record into the group meanwhile: that one is newer.
            _ = operations.delete(query(key, group: legacy))
        } else if moved != KeychainStatus.success && moved != KeychainStatus.itemNotFound {
            throw KeychainStatusMapping.error(moved, during: .read)
        }
        let (reread, item) = operations.read(query(key))
        switch reread {
        case KeychainStatus.success: return item?.data
        case KeychainStatus.itemNotFound: return nil
        default: throw KeychainStatusMapping.error(reread, during: .read)
        }
    }

    /// Deletes the key's copies outside ``accessGroup`` (best effort).
    private func removeLegacyCopies(key: String) {
        guard let accessGroup else { return }
        let (status, groups) = operations.accessGroups(query(key, group: .some(nil)))
        guard status == KeychainStatus.success else { return }
        for group in Set(groups).sorted() where group != accessGroup {
            _ = operations.delete(query(key, group: group))
        }
    }
}
