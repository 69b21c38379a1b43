import Foundation

/// One `SecItem*` call as plain values: what the Keychain store asks of the keychain, built without Security
/// so that the tests check it on Linux; `SecItemKeychain` turns it into the call's dictionary, key for key.
///
/// Every request names a generic password by service and account, in the data-protection keychain (the one
/// with access groups on macOS too), never synchronizable (iCloud Keychain never carries it). A request
/// without an access group would search every group the app belongs to (or, for an add, use the app's
/// first group), so the store resolves its group first and names it in every request but the probe that
/// finds it out.
package struct SecItemRequest: Sendable, Equatable {
    /// The `SecItem` function.
    package enum Call: Sendable, Equatable {
        /// `SecItemCopyMatching`.
        case copyMatching
        /// `SecItemAdd`.
        case add
        /// `SecItemUpdate`.
        case update
        /// `SecItemDelete`.
        case delete
    }

    /// `kSecClass` values.
    package enum ItemClass: Sendable, Equatable {
        /// `kSecClassGenericPassword`.
        case genericPassword
    }

    /// `kSecAttrAccessible` values.
    package enum Accessibility: Sendable, Equatable {
        /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: readable once the device was unlocked after a
        /// restart, never moved to another device by a backup.
        case afterFirstUnlockThisDeviceOnly
    }

    /// `kSecMatchLimit` values.
    package enum MatchLimit: Sendable, Equatable {
        /// `kSecMatchLimitOne`.
        case one
    }

    /// The attributes a `SecItemUpdate` sets (its second dictionary).
    package struct Changes: Sendable, Equatable {
        /// `kSecValueData`.
        package var data: Data?
        /// `kSecAttrAccessible`, set again with new data.
        package var accessibility: Accessibility?
        /// `kSecAttrLabel`.
        package var label: String?
        /// `kSecAttrAccessGroup`: moves the item into this group.
        package var accessGroup: String?

        /// Creates the changes.
        package init(data: Data?, accessibility: Accessibility?, label: String?, accessGroup: String?) {
            self.data = data
            self.accessibility = accessibility
            self.label = label
            self.accessGroup = accessGroup
        }
    }

    /// The function.
    package var call: Call
    /// `kSecClass`.
    package var itemClass = ItemClass.genericPassword
    /// `kSecAttrService`.
    package var service: String
    /// `kSecAttrAccount`.
    package var account: String
    /// `kSecAttrAccessGroup`; `nil` only in the probe that finds out the app's default group.
    package var accessGroup: String?
    /// `kSecAttrLabel`: an exact match in a query (a compare-and-swap), the new item's label in an add.
    package var label: String?
    /// `kSecAttrSynchronizable`: always `false` (the query matches, and the add creates, device-only items).
    package var synchronizable = false
    /// `kSecUseDataProtectionKeychain`: always `true` (on macOS, the keychain iOS has; ignored elsewhere).
    package var useDataProtectionKeychain = true
    /// `kSecAttrAccessible` of a new item.
    package var accessibility: Accessibility?
    /// `kSecValueData` of a new item.
    package var data: Data?
    /// `kSecReturnData`.
    package var returnData = false
    /// `kSecReturnAttributes` (for an add: the new item's attributes, its access group among them).
    package var returnAttributes = false
    /// `kSecMatchLimit`.
    package var matchLimit: MatchLimit?
    /// What an update changes.
    package var changes: Changes?

    private init(_ call: Call, _ query: KeychainQuery) {
        self.call = call
        service = query.service
        account = query.account
        accessGroup = query.accessGroup
        label = query.label
    }

    /// Reads one item's data and attributes.
    package static func read(_ query: KeychainQuery) -> SecItemRequest {
        var request = SecItemRequest(.copyMatching, query)
        request.returnData = true
        request.returnAttributes = true
        request.matchLimit = .one
        return request
    }

    /// Adds an item readable after the first unlock, on this device only; with `reportingGroup`, the call
    /// returns the new item's attributes (the group it landed in).
    package static func add(
        _ query: KeychainQuery, data: Data, label: String?, reportingGroup: Bool = false
    ) -> SecItemRequest {
        var request = SecItemRequest(.add, query)
        request.label = label ?? query.label
        request.data = data
        request.accessibility = .afterFirstUnlockThisDeviceOnly
        request.returnAttributes = reportingGroup
        return request
    }

    /// Updates the matching item: new data (with its accessibility), label or access group where given.
    package static func update(
        _ query: KeychainQuery, data: Data?, label: String?, accessGroup: String?
    ) -> SecItemRequest {
        var request = SecItemRequest(.update, query)
        request.changes = Changes(
            data: data, accessibility: data == nil ? nil : .afterFirstUnlockThisDeviceOnly, label: label,
            accessGroup: accessGroup)
        return request
    }

    /// Deletes the matching items.
    package static func delete(_ query: KeychainQuery) -> SecItemRequest {
        SecItemRequest(.delete, query)
    }
}
