#if canImport(Security)
    import Foundation
    import Security

    /// ``SupabaseSwiftKeychainItems`` on `SecItem*`, with exactly the attributes supabase-swift's `Keychain`
    /// puts in its queries (so it finds the items that one wrote, in the keychain it wrote them to).
    struct SupabaseSwiftSecItems: SupabaseSwiftKeychainItems {
        func read(service: String?, account: String, accessGroup: String?) throws(AuthError) -> Data? {
            var query = Self.query(service: service, account: account, accessGroup: accessGroup)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else {
                throw AuthError(.storeUnavailable, "supabase-swift's Keychain item could not be read (\(status)).")
            }
            return data
        }

        func delete(service: String?, account: String, accessGroup: String?) throws(AuthError) {
            let status = SecItemDelete(
                Self.query(service: service, account: account, accessGroup: accessGroup) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw AuthError(.storeFailed, "supabase-swift's Keychain item could not be deleted (\(status)).")
            }
        }

        private static func query(service: String?, account: String, accessGroup: String?) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
            ]
            if let service { query[kSecAttrService as String] = service }
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }
    }

    extension SessionImport {
        /// The Keychain item supabase-swift's default storage (`KeychainLocalStorage`) wrote: service the app's
        /// bundle identifier, then `supabase.gotrue.swift` (its versions before 3); account the storage key, then
        /// `supabase.session` (its oldest versions) for the default key. The item is deleted once the session is
        /// in this client's store.
        /// - Parameters:
        ///   - storageKey: supabase-swift's `AuthClient.Configuration.storageKey` (default `supabase.auth.token`).
        ///   - service: The service of a `KeychainLocalStorage(service:)` the app configured; `nil` for the
        ///     default storage.
        ///   - accessGroup: The access group the app gave supabase-swift's storage, if any.
        /// - Returns: The import.
        public static func supabaseSwiftKeychain(
            storageKey: String = SessionImport.supabaseSwiftStorageKey, service: String? = nil,
            accessGroup: String? = nil
        ) -> SessionImport {
            SessionImport(
                format: .supabaseSwift,
                source: SupabaseSwiftKeychainSource(
                    items: SupabaseSwiftSecItems(), storageKey: storageKey, service: service, accessGroup: accessGroup,
                    bundleIdentifier: Bundle.main.bundleIdentifier))
        }
    }
#endif
