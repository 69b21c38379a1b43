#if canImport(Security)
    import Foundation
    import Security

    /// A store in the Apple keychain: generic passwords by service and account, readable after the first
    /// unlock, never synced or migrated to another device.
    ///
    /// A locked keychain (`errSecInteractionNotAllowed`, e.g. during prewarming) reads as
    /// `store_unavailable`, never as "no session".
    public struct KeychainSessionStore: SessionStore {
        /// The keychain service.
        public let service: String
        /// The keychain access group shared with app extensions, if any.
        public let accessGroup: String?

        /// Creates a store.
        /// - Parameters:
        ///   - service: The keychain service (default `dev.latchkey.sessions`).
        ///   - accessGroup: An access group shared with extensions.
        public init(service: String = "dev.latchkey.sessions", accessGroup: String? = nil) {
            self.service = service
            self.accessGroup = accessGroup
        }

        /// Reads a record.
        public func load(key: String) async throws(AuthError) -> Data? {
            var query = baseQuery(key)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            switch status {
            case errSecSuccess: return result as? Data
            case errSecItemNotFound: return nil
            default: throw AuthError(.storeUnavailable, "Keychain read failed with status \(status).")
            }
        }

        /// Writes a record.
        public func save(_ data: Data, key: String) async throws(AuthError) {
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(baseQuery(key) as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                var query = baseQuery(key)
                query.merge(attributes) { _, new in new }
                status = SecItemAdd(query as CFDictionary, nil)
            }
            guard status == errSecSuccess else {
                throw AuthError(.storeFailed, "Keychain write failed with status \(status).")
            }
        }

        /// Removes a record.
        public func remove(key: String) async throws(AuthError) {
            let status = SecItemDelete(baseQuery(key) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw AuthError(.storeFailed, "Keychain delete failed with status \(status).")
            }
        }

        private func baseQuery(_ key: String) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: key,
                kSecUseDataProtectionKeychain as String: true,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }
    }
#endif
