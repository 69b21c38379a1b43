import LatchkeyTokens

#if canImport(Security)
    import Foundation
    import Security

    /// ``SupabaseSwiftKeychainItems`` on `SecItem*`, with exactly the attributes supabase-swift's `Keychain`
    /// puts in its queries (so it finds the items that one wrote, in the keychain it wrote them to).
    struct SupabaseSwiftSecItems: SupabaseSwiftKeychainItems {
        /// Whether the queries name the data-protection keychain (supabase-swift's `useDataProtectionKeychain`;
        /// on macOS its default is the file-based keychain, elsewhere there is only one).
        var useDataProtectionKeychain = false

        func read(service: String?, account: String, accessGroup: String?) throws(AuthError) -> Data? {
            var request = query(service: service, account: account, accessGroup: accessGroup)
            request[kSecReturnData as String] = true
            request[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(request as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else {
                throw AuthError(.storeUnavailable, "supabase-swift's Keychain item could not be read (\(status)).")
            }
            return data
        }

        func delete(service: String?, account: String, accessGroup: String?) throws(AuthError) {
            let status = SecItemDelete(
                query(service: service, account: account, accessGroup: accessGroup) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw AuthError(.storeFailed, "supabase-swift's Keychain item could not be deleted (\(status)).")
            }
        }

        private func query(service: String?, account: String, accessGroup: String?) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
            ]
            if useDataProtectionKeychain { query[kSecUseDataProtectionKeychain as String] = true }
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
        ///   - useDataProtectionKeychain: Whether the app gave supabase-swift's storage
        ///     `useDataProtectionKeychain: true` (macOS; default `false`, as supabase-swift's).
        /// - Returns: The import.
        public static func supabaseSwiftKeychain(
            storageKey: String = SessionImport.supabaseSwiftStorageKey, service: String? = nil,
            accessGroup: String? = nil, useDataProtectionKeychain: Bool = false
        ) -> SessionImport {
            SessionImport(
                format: .supabaseSwift,
                source: SupabaseSwiftKeychainSource(
                    items: SupabaseSwiftSecItems(useDataProtectionKeychain: useDataProtectionKeychain),
                    storageKey: storageKey, service: service, accessGroup: accessGroup,
                    bundleIdentifier: Bundle.main.bundleIdentifier))
        }
    }
#endif
