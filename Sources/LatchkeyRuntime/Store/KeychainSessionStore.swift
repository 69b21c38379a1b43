import LatchkeyPlatform
import LatchkeyTokens

#if canImport(Security)
    import Foundation

    /// A store in the Apple keychain: generic passwords by service and account in one access group, readable
    /// after the first unlock, never synced or migrated to another device.
    ///
    /// Without an `accessGroup` the items live in the app's default group (the first entry of its
    /// `keychain-access-groups` entitlement, else its app ID), which the store finds out once with a probe
    /// item and names in every later call: it never reads, updates or deletes the key in another group.
    ///
    /// A locked keychain (`errSecInteractionNotAllowed`, e.g. during prewarming) reads as `store_unavailable`,
    /// never as "no session"; a missing keychain entitlement (`-34018`, e.g. `swift run` on macOS) says so.
    /// Two writers racing never fail: the loser's add becomes an update. Every keychain call runs on a serial
    /// dispatch queue, never on Swift's cooperative pool.
    ///
    /// Refreshes are coordinated across processes by a lease item in the group (no lock is held across the
    /// refresh request, so a suspended extension blocks nobody for longer than ``refreshLockTimeout``) whenever
    /// the group may be shared: always with an `accessGroup`, and without one unless the default group is the
    /// app's own app ID group (`TEAMID.<bundle identifier>`, which Apple documents no other app can be in). An
    /// app whose Keychain Sharing entitlement lists a shared group first takes the lease without being told.
    ///
    /// With an `accessGroup` (an app and its extensions sharing one session):
    /// - a record written before the group was set is moved into the group the first time it is missed there,
    ///   so adding the group in an update does not sign users out.
    ///
    /// Keychain items outlive the app on iOS: after a delete and reinstall the old session is still there. The
    /// store does not guess; see the "Keychain, extensions and reinstalls" article for the recommended check.
    public struct KeychainSessionStore: SessionStore {
        /// The keychain service.
        public let service: String
        /// The keychain access group shared with app extensions, if any.
        public let accessGroup: String?
        /// How long a refresh waits for another process's refresh, and how long a refresh lease lasts.
        public let refreshLockTimeout: LatchkeyDuration
        private let records: KeychainRecordStore

        /// Creates a store.
        /// - Parameters:
        ///   - service: The keychain service (default `dev.latchkey.sessions`).
        ///   - accessGroup: An access group shared with extensions (`TEAMID.com.example.shared`).
        ///   - refreshLockTimeout: How long a refresh lease lasts and a refresh waits for another process's
        ///     (default 60 s: longer than a refresh request's 30 s timeout).
        public init(
            service: String = "dev.latchkey.sessions", accessGroup: String? = nil,
            refreshLockTimeout: LatchkeyDuration = .seconds(60)
        ) {
            self.service = service
            self.accessGroup = accessGroup
            self.refreshLockTimeout = refreshLockTimeout
            records = KeychainRecordStore(
                operations: SecItemKeychain(), service: service, accessGroup: accessGroup,
                bundleIdentifier: Bundle.main.bundleIdentifier, refreshLockTimeout: refreshLockTimeout)
        }

        /// Reads a record.
        /// - Throws: `store_unavailable` when the keychain is locked or cannot be read.
        public func load(key: String) async throws(AuthError) -> Data? {
            try await records.load(key: key)
        }

        /// Writes a record.
        /// - Throws: `store_failed` when the keychain refuses the write.
        public func save(_ data: Data, key: String) async throws(AuthError) {
            try await records.save(data, key: key)
        }

        /// Removes a record from its group (with an `accessGroup`, from the app's default group too).
        /// - Throws: `store_failed` when the keychain refuses the delete.
        public func remove(key: String) async throws(AuthError) {
            try await records.remove(key: key)
        }

        /// Runs a refresh under the group's refresh lease (at once in the app's own app ID group).
        /// - Throws: `store_unavailable` when the lease cannot be had within ``refreshLockTimeout``; what
        ///   `body` throws.
        public func withExclusiveRefresh<T: Sendable>(
            key: String, _ body: @Sendable () async throws(AuthError) -> T
        ) async throws(AuthError) -> T {
            try await records.withExclusiveRefresh(key: key, body)
        }
    }
#endif
