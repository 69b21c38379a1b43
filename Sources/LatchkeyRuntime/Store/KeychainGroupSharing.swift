/// Whether another process may read and write the items of a keychain access group: the rule that decides
/// whether the Keychain store takes a refresh lease.
///
/// An app's access groups are, in order, its `keychain-access-groups` entitlement, its app ID
/// (`TEAMID.bundle.identifier`) and its App Groups; an item added without a group goes to the first of them.
/// Apple documents the app ID group as the one no other app can be in ("the item is only accessible to the
/// app creating the item", `kSecAttrAccessGroup`); every other group is a name that any app or extension of
/// the team may list in its entitlements. So:
///
/// - A group the app passed explicitly is shared (that is why it was passed).
/// - The default group is private only when it is this process's app ID: the team prefix (no dots), a dot,
///   then exactly the main bundle's identifier. An app with Keychain Sharing whose first group is
///   `TEAMID.com.example.shared` adds its items there, readable by its extensions, and so takes the lease.
/// - With no bundle identifier to compare, the group counts as shared.
///
/// A lease costs two keychain calls per refresh; a refresh that two processes run at once costs a provider
/// that rotates refresh tokens the whole session. When in doubt, the store takes the lease.
package enum KeychainGroupSharing {
    /// Whether `group` may be shared with another process.
    /// - Parameters:
    ///   - group: The access group the store's items are in.
    ///   - explicit: Whether the app passed the group (rather than the store resolving its default group).
    ///   - bundleIdentifier: The main bundle's identifier (`nil` for a tool without a bundle).
    /// - Returns: `false` only for the default group when it is this process's own app ID group.
    package static func mayBeShared(group: String, explicit: Bool, bundleIdentifier: String?) -> Bool {
        if explicit { return true }
        return !isAppIDGroup(group, bundleIdentifier: bundleIdentifier)
    }

    /// Whether `group` is `<prefix>.<bundleIdentifier>` with a non-empty prefix without dots.
    package static func isAppIDGroup(_ group: String, bundleIdentifier: String?) -> Bool {
        guard let bundleIdentifier, !bundleIdentifier.isEmpty, let dot = group.firstIndex(of: ".") else {
            return false
        }
        let prefix = group[..<dot]
        return !prefix.isEmpty && group[group.index(after: dot)...] == bundleIdentifier[...]
    }
}
