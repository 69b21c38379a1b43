#if canImport(Security)
    import Foundation
    import Security

    /// ``KeychainOperations`` on `SecItem*`: each call is a ``SecItemRequest`` (built and tested without
    /// Security) turned into its dictionary, key for key, and nothing else.
    struct SecItemKeychain: KeychainOperations {
        func read(_ query: KeychainQuery) -> (status: Int32, item: KeychainItem?) {
            var result: CFTypeRef?
            let status = SecItemCopyMatching(Self.dictionary(.read(query)) as CFDictionary, &result)
            guard status == errSecSuccess else { return (status, nil) }
            guard let attributes = result as? [String: Any], let data = attributes[kSecValueData as String] as? Data
            else { return (errSecDecode, nil) }
            let item = KeychainItem(
                data: data, label: attributes[kSecAttrLabel as String] as? String,
                accessGroup: attributes[kSecAttrAccessGroup as String] as? String)
            return (status, item)
        }

        func add(_ query: KeychainQuery, data: Data, label: String?) -> Int32 {
            SecItemAdd(Self.dictionary(.add(query, data: data, label: label)) as CFDictionary, nil)
        }

        func addReportingGroup(
            _ query: KeychainQuery, data: Data, label: String?
        ) -> (status: Int32, group: String?) {
            let request = SecItemRequest.add(query, data: data, label: label, reportingGroup: true)
            var result: CFTypeRef?
            let status = SecItemAdd(Self.dictionary(request) as CFDictionary, &result)
            guard status == errSecSuccess else { return (status, nil) }
            return (status, (result as? [String: Any])?[kSecAttrAccessGroup as String] as? String)
        }

        func update(_ query: KeychainQuery, data: Data?, label: String?, accessGroup: String?) -> Int32 {
            let request = SecItemRequest.update(query, data: data, label: label, accessGroup: accessGroup)
            return SecItemUpdate(
                Self.dictionary(request) as CFDictionary, Self.changes(request.changes) as CFDictionary)
        }

        func delete(_ query: KeychainQuery) -> Int32 {
            SecItemDelete(Self.dictionary(.delete(query)) as CFDictionary)
        }

        /// The query (or, for an add, the new item) dictionary of a request.
        static func dictionary(_ request: SecItemRequest) -> [String: Any] {
            var dictionary: [String: Any] = [
                kSecClass as String: itemClass(request.itemClass),
                kSecAttrService as String: request.service,
                kSecAttrAccount as String: request.account,
                kSecAttrSynchronizable as String: request.synchronizable,
                kSecUseDataProtectionKeychain as String: request.useDataProtectionKeychain,
            ]
            if let group = request.accessGroup { dictionary[kSecAttrAccessGroup as String] = group }
            if let label = request.label { dictionary[kSecAttrLabel as String] = label }
            if let accessibility = request.accessibility {
                dictionary[kSecAttrAccessible as String] = Self.accessibility(accessibility)
            }
            if let data = request.data { dictionary[kSecValueData as String] = data }
            if request.returnData { dictionary[kSecReturnData as String] = true }
            if request.returnAttributes { dictionary[kSecReturnAttributes as String] = true }
            if let limit = request.matchLimit {
                switch limit {
                case .one: dictionary[kSecMatchLimit as String] = kSecMatchLimitOne
                }
            }
            return dictionary
        }

        /// The attributes dictionary of an update.
        static func changes(_ changes: SecItemRequest.Changes?) -> [String: Any] {
            var dictionary: [String: Any] = [:]
            guard let changes else { return dictionary }
            if let data = changes.data { dictionary[kSecValueData as String] = data }
            if let accessibility = changes.accessibility {
                dictionary[kSecAttrAccessible as String] = Self.accessibility(accessibility)
            }
            if let label = changes.label { dictionary[kSecAttrLabel as String] = label }
            if let group = changes.accessGroup { dictionary[kSecAttrAccessGroup as String] = group }
            return dictionary
        }

        private static func itemClass(_ itemClass: SecItemRequest.ItemClass) -> CFString {
            switch itemClass {
            case .genericPassword: kSecClassGenericPassword
            }
        }

        private static func accessibility(_ accessibility: SecItemRequest.Accessibility) -> CFString {
            switch accessibility {
            case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            }
        }
    }
#endif
