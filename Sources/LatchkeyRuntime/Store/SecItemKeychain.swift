#if canImport(Security)
    import Foundation
    import Security

    /// ``KeychainOperations`` on `SecItem*`: generic passwords in the data-protection keychain, readable after
    /// the first unlock, never synced and never restored to another device.
    struct SecItemKeychain: KeychainOperations {
        func read(_ query: KeychainQuery) -> (status: Int32, item: KeychainItem?) {
            var dictionary = SecItemKeychain.dictionary(query)
            dictionary[kSecReturnData as String] = true
            dictionary[kSecReturnAttributes as String] = true
            dictionary[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(dictionary as CFDictionary, &result)
            guard status == errSecSuccess else { return (status, nil) }
            guard let attributes = result as? [String: Any], let data = attributes[kSecValueData as String] as? Data
            else { return (errSecDecode, nil) }
            let item = KeychainItem(
                data: data, label: attributes[kSecAttrLabel as String] as? String,
                accessGroup: attributes[kSecAttrAccessGroup as String] as? String)
            return (status, item)
        }

        func accessGroups(_ query: KeychainQuery) -> (status: Int32, groups: [String]) {
            var dictionary = SecItemKeychain.dictionary(query)
            dictionary[kSecReturnAttributes as String] = true
            dictionary[kSecMatchLimit as String] = kSecMatchLimitAll
            var result: CFTypeRef?
            let status = SecItemCopyMatching(dictionary as CFDictionary, &result)
            guard status == errSecSuccess else { return (status, []) }
            let items = result as? [[String: Any]] ?? []
            return (status, items.compactMap { $0[kSecAttrAccessGroup as String] as? String })
        }

        func add(_ query: KeychainQuery, data: Data, label: String?) -> Int32 {
            var dictionary = SecItemKeychain.dictionary(query)
            dictionary[kSecValueData as String] = data
            dictionary[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            if let label { dictionary[kSecAttrLabel as String] = label }
            return SecItemAdd(dictionary as CFDictionary, nil)
        }

        func update(_ query: KeychainQuery, data: Data?, label: String?, accessGroup: String?) -> Int32 {
            var attributes: [String: Any] = [:]
            if let data {
                attributes[kSecValueData as String] = data
                attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            }
            if let label { attributes[kSecAttrLabel as String] = label }
            if let accessGroup { attributes[kSecAttrAccessGroup as String] = accessGroup }
            return SecItemUpdate(SecItemKeychain.dictionary(query) as CFDictionary, attributes as CFDictionary)
        }

        func delete(_ query: KeychainQuery) -> Int32 {
            SecItemDelete(SecItemKeychain.dictionary(query) as CFDictionary)
        }

        private static func dictionary(_ query: KeychainQuery) -> [String: Any] {
            var dictionary: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: query.service,
                kSecAttrAccount as String: query.account,
                kSecUseDataProtectionKeychain as String: true,
            ]
            if let accessGroup = query.accessGroup { dictionary[kSecAttrAccessGroup as String] = accessGroup }
            if let label = query.label { dictionary[kSecAttrLabel as String] = label }
            return dictionary
        }
    }
#endif
