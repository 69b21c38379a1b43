import Foundation
import LatchkeyPlatform
import LatchkeyTokens

/// The Keychain store's policy over ``KeychainOperations``: what `KeychainSessionStore` does on Apple
/// platforms, and what the Linux tests run against an in-memory keychain.
///
/// - Records are generic passwords: service ``service``, account = the record's key, in one access group:
///   ``accessGroup``, else the app's default group, found out once per store by adding (and deleting) a
///   probe item without a group. Every other call names the group: a query without one would read, update
///   and delete the key in every group the app belongs to, another app's shared group among them.
/// - Two writers racing: the second `SecItemAdd` gets `errSecDuplicateItem` and becomes an update.
/// - With an ``accessGroup``, a record written before the group was set (in the app's default group) is moved
///   into the group when it is first missed there, so the user stays signed in; a removal removes the key in
///   both groups, so a moved-away copy never brings a signed-out session back.
/// - Refreshes are coordinated by a lease item (``KeychainRefreshLock``) whenever the group may be shared
///   with another process (``KeychainGroupSharing``): always with an ``accessGroup``, and without one unless
///   the default group is the app's own app ID group. No lock is held across the refresh request.
/// - Every call runs on a serial dispatch queue, never on Swift's cooperative pool.
package struct KeychainRecordStore: SessionStore {
    /// The keychain service.
    package let service: String
    /// The access group shared with extensions, if any.
    package let accessGroup: String?
    /// How long a refresh waits for another process's refresh, and how long a lease lasts.
    package let refreshLockTimeout: LatchkeyDuration
    private let operations: any KeychainOperations
    private let bundleIdentifier: String?
    private let now: @Sendable () -> Int64
    private let clock: any LatchkeyClock
    private let defaultGroup = ResolvedGroup()

    /// Creates the policy over a keychain.
    /// - Parameters:
    ///   - operations: The keychain.
    ///   - service: The keychain service.
    ///   - accessGroup: The access group shared with extensions, if any.
    ///   - bundleIdentifier: The main bundle's identifier, which tells whether the default group is the app's
    ///     own (`nil`: it counts as shared).
    ///   - refreshLockTimeout: How long a refresh lease lasts and a refresh waits for another one.
    ///   - now: The wall clock in milliseconds since 1970 (shared by processes).
    ///   - clock: The clock the refresh lease's waits sleep on, and its timeout is measured by (default
    ///     ``SystemClock``).
    package init(
        operations: any KeychainOperations, service: String, accessGroup: String?, bundleIdentifier: String? = nil,
        refreshLockTimeout: LatchkeyDuration = .seconds(60),
        now: @escaping @Sendable () -> Int64 = RefreshLease.currentMilliseconds,
        clock: any LatchkeyClock = SystemClock()
    ) {
        self.operations = operations
        self.service = service
        self.accessGroup = accessGroup
        self.bundleIdentifier = bundleIdentifier
        self.refreshLockTimeout = refreshLockTimeout
        self.now = now
        self.clock = clock
    }

    private static let queue = BlockingQueue(label: "dev.latchkey.keychain-session-store")

    private func query(_ key: String, in group: String) -> KeychainQuery {
        KeychainQuery(service: service, account: key, accessGroup: group)
    }

    /// Reads a record; moves one written before ``accessGroup`` was set into the group.
    package func load(key: String) async throws(AuthError) -> Data? {
        try await KeychainRecordStore.queue.run { () throws(AuthError) in try self.loadNow(key: key) }
    }

    /// Writes a record; a racing writer's `errSecDuplicateItem` becomes an update.
    package func save(_ data: Data, key: String) async throws(AuthError) {
        try await KeychainRecordStore.queue.run { () throws(AuthError) in try self.saveNow(data, key: key) }
    }

    /// Removes the record from its group (and, with an ``accessGroup``, from the default group too).
    package func remove(key: String) async throws(AuthError) {
        try await KeychainRecordStore.queue.run { () throws(AuthError) in
            var groups = [try self.recordGroup(during: .delete)]
            if self.accessGroup != nil { groups.append(try self.resolveDefaultGroup(during: .delete)) }
            for group in Set(groups).sorted() {
                let status = self.operations.delete(self.query(key, in: group))
                guard status == KeychainStatus.success || status == KeychainStatus.itemNotFound else {
                    throw KeychainStatusMapping.error(status, during: .delete)
                }
            }
        }
    }

    /// Runs a refresh under the key's refresh lease when the group may be shared with another process
    /// (``KeychainGroupSharing``); at once when it is the app's own.
    package func withExclusiveRefresh<T: Sendable>(
        key: String, _ body: @Sendable () async throws(AuthError) -> T
    ) async throws(AuthError) -> T {
        let group = try await KeychainRecordStore.queue.run { () throws(AuthError) in
            try self.recordGroup(during: .lock)
        }
        let shared = KeychainGroupSharing.mayBeShared(
            group: group, explicit: accessGroup != nil, bundleIdentifier: bundleIdentifier)
        guard shared else { return try await body() }
        let lock = KeychainRefreshLock(
            operations: operations, query: query(KeychainRefreshLock.account(forKey: key), in: group),
            timeout: refreshLockTimeout, now: now, queue: KeychainRecordStore.queue, clock: clock)
        return try await lock.withLock(body)
    }

    func loadNow(key: String) throws(AuthError) -> Data? {
        let group = try recordGroup(during: .read)
        let (status, item) = operations.read(query(key, in: group))
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
        let group = try recordGroup(during: .write)
        // Update, else add; an add that loses a race to another writer's add is retried as an update.
        for _ in 0..<4 {
            let updated = operations.update(query(key, in: group), data: data, label: nil, accessGroup: nil)
            if updated == KeychainStatus.success { return }
            guard updated == KeychainStatus.itemNotFound else {
                throw KeychainStatusMapping.error(updated, during: .write)
            }
            let added = operations.add(query(key, in: group), data: data, label: nil)
            if added == KeychainStatus.success {
                // The first write into the group: a copy left in the default group would come back later.
                removeLegacyCopy(key: key)
                return
            }
            guard added == KeychainStatus.duplicateItem else {
                throw KeychainStatusMapping.error(added, during: .write)
            }
        }
        throw AuthError(.storeFailed, "Keychain write kept racing another writer; try again.")
    }

    /// The group the records live in: ``accessGroup``, else the app's default group.
    private func recordGroup(during operation: KeychainStatusMapping.Operation) throws(AuthError) -> String {
        if let accessGroup { return accessGroup }
        return try resolveDefaultGroup(during: operation)
    }

    /// The app's default access group (where an add without a group goes), found out once: a probe item with
    /// a fresh account is added without a group, and deleted from the group the keychain reports.
    private func resolveDefaultGroup(during operation: KeychainStatusMapping.Operation) throws(AuthError) -> String {
        if let known = defaultGroup.value.withLock({ $0 }) { return known }
        let probe = KeychainQuery(
            service: service, account: KeychainRecordStore.probeAccountPrefix + RefreshLease.newOwner(),
            accessGroup: nil)
        let (status, reported) = operations.addReportingGroup(probe, data: Data(), label: nil)
        guard status == KeychainStatus.success else { throw KeychainStatusMapping.error(status, during: operation) }
        guard let group = reported, !group.isEmpty else {
            throw AuthError(
                operation == .read || operation == .lock ? .storeUnavailable : .storeFailed,
                "The keychain did not report the app's default access group; pass an accessGroup to "
                    + "KeychainSessionStore.")
        }
        _ = operations.delete(query(probe.account, in: group))
        defaultGroup.value.withLock { $0 = group }
        return group
    }

    /// The account of the probe item, followed by random hex.
    package static let probeAccountPrefix = "dev.latchkey.access-group-probe."

    /// Moves the key's record from the default group into ``accessGroup``; `nil` when there is none.
    private func migrateLegacy(key: String) throws(AuthError) -> Data? {
        guard let accessGroup else { return nil }
        let legacy = try resolveDefaultGroup(during: .read)
        guard legacy != accessGroup else { return nil }
        let moved = operations.update(query(key, in: legacy), data: nil, label: nil, accessGroup: accessGroup)
        if moved == KeychainStatus.duplicateItem {
            // Another process wrote the record into the group meanwhile: that one is newer.
            _ = operations.delete(query(key, in: legacy))
        } else if moved != KeychainStatus.success && moved != KeychainStatus.itemNotFound {
            throw KeychainStatusMapping.error(moved, during: .read)
        }
        let (reread, item) = operations.read(query(key, in: accessGroup))
        switch reread {
        case KeychainStatus.success: return item?.data
        case KeychainStatus.itemNotFound: return nil
        default: throw KeychainStatusMapping.error(reread, during: .read)
        }
    }

    /// Deletes the key's copy in the default group, outside ``accessGroup`` (best effort).
    private func removeLegacyCopy(key: String) {
        guard let accessGroup, let legacy = try? resolveDefaultGroup(during: .write), legacy != accessGroup else {
            return
        }
        _ = operations.delete(query(key, in: legacy))
    }
}

/// The default access group once a store found it out (calls run on one serial queue; the lock makes the
/// store `Sendable`).
private final class ResolvedGroup: Sendable {
    let value = Locked<String?>(nil)
}
