import Foundation

/// Which generic-password items a keychain call matches: the platform-neutral shape of a `SecItem` query.
package struct KeychainQuery: Sendable, Equatable {
    /// `kSecAttrService`.
    package var service: String
    /// `kSecAttrAccount`.
    package var account: String
    /// `kSecAttrAccessGroup`; `nil` would match every group the app may read (and add to its default group),
    /// so the store leaves it out only to find out that default group.
    package var accessGroup: String?
    /// `kSecAttrLabel`; when set, only an item with exactly this label matches (a compare-and-swap).
    package var label: String?

    /// Creates a query.
    package init(service: String, account: String, accessGroup: String?, label: String? = nil) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.label = label
    }
}

/// One generic-password item as a read returns it.
package struct KeychainItem: Sendable, Equatable {
    /// `kSecValueData`.
    package var data: Data
    /// `kSecAttrLabel`.
    package var label: String?
    /// `kSecAttrAccessGroup`: the group the item is in.
    package var accessGroup: String?

    /// Creates an item.
    package init(data: Data, label: String? = nil, accessGroup: String? = nil) {
        self.data = data
        self.label = label
        self.accessGroup = accessGroup
    }
}

/// The `OSStatus` values the keychain policy acts on, platform-neutral (Security's constants on Apple
/// platforms have these values; a test there checks it).
package enum KeychainStatus {
    /// `errSecSuccess`.
    package static let success: Int32 = 0
    /// `errSecItemNotFound`.
    package static let itemNotFound: Int32 = -25300
    /// `errSecDuplicateItem`.
    package static let duplicateItem: Int32 = -25299
    /// `errSecInteractionNotAllowed`: the keychain is locked (before the first unlock, prewarming).
    package static let interactionNotAllowed: Int32 = -25308
    /// `errSecMissingEntitlement`: the process has no keychain entitlement (`swift run`, an unsigned tool).
    package static let missingEntitlement: Int32 = -34018
}

/// The keychain calls the Keychain store makes, one blocking call each: `SecItem*` on Apple platforms, an
/// in-memory fake in tests, so that the store's policy (migration, duplicates, the refresh lease, error
/// mapping) runs on Linux. Callers run them off Swift's cooperative pool.
package protocol KeychainOperations: Sendable {
    /// `SecItemCopyMatching` for one item, with its data and attributes.
    /// - Returns: The status, and the item when it is `success`.
    func read(_ query: KeychainQuery) -> (status: Int32, item: KeychainItem?)

    /// `SecItemAdd` of an item readable after the first unlock, on this device only.
    func add(_ query: KeychainQuery, data: Data, label: String?) -> Int32

    /// `SecItemAdd` as ``add(_:data:label:)``, returning the access group the item landed in: with no group in
    /// the query, the app's default group.
    /// - Returns: The status, and the item's access group when it is `success`.
    func addReportingGroup(_ query: KeychainQuery, data: Data, label: String?) -> (status: Int32, group: String?)

    /// `SecItemUpdate` of the matching items: new data, label or access group where given.
    func update(_ query: KeychainQuery, data: Data?, label: String?, accessGroup: String?) -> Int32

    /// `SecItemDelete` of the matching items.
    func delete(_ query: KeychainQuery) -> Int32
}
