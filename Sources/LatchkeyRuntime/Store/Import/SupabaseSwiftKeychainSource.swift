import Foundation
import LatchkeyTokens

/// The generic-password items supabase-swift's `Keychain` reads and deletes (`kSecClassGenericPassword`, its
/// service when it has one, the storage key as `kSecAttrAccount`, its access group when it has one): `SecItem*`
/// on Apple platforms, an in-memory fake in tests, so that where the import looks runs on Linux.
package protocol SupabaseSwiftKeychainItems: Sendable {
    /// The item's data (`SecItemCopyMatching`), or `nil` when there is none (`errSecItemNotFound`).
    /// - Throws: `store_unavailable` for any other status (a locked keychain is not "no session").
    func read(service: String?, account: String, accessGroup: String?) throws(AuthError) -> Data?
    /// Deletes the item (`SecItemDelete`); a missing item is not an error.
    func delete(service: String?, account: String, accessGroup: String?) throws(AuthError)
}

/// Where supabase-swift's `KeychainLocalStorage` keeps the session (`Sources/Auth/Storage/KeychainLocalStorage.swift`
/// and `Sources/Auth/Internal/SessionStorage.swift`): the service is the app's bundle identifier (or
/// `supabase.gotrue.swift` without one, and in versions before 3, which it still migrates from); the account
/// is the storage key (`supabase.auth.token` by default, `supabase.session` in its oldest versions).
struct SupabaseSwiftKeychainSource: SessionImportSource {
    /// The service supabase-swift used before version 3, and uses without a bundle identifier.
    static let legacyService = "supabase.gotrue.swift"
    /// The account supabase-swift's oldest versions stored the session under.
    static let oldestAccount = "supabase.session"

    let items: any SupabaseSwiftKeychainItems
    /// Services tried in order.
    let services: [String?]
    /// Accounts tried in order.
    let accounts: [String]
    let accessGroup: String?
    let queue = BlockingQueue(label: "latchkey.session-import.keychain")

    /// The locations supabase-swift reads, in its order.
    /// - Parameters:
    ///   - items: The keychain.
    ///   - storageKey: supabase-swift's `storageKey`.
    ///   - service: The service it was configured with (`KeychainLocalStorage(service:)`), or `nil` for its
    ///     default storage.
    ///   - accessGroup: Its access group.
    ///   - bundleIdentifier: The app's bundle identifier.
    init(
        items: any SupabaseSwiftKeychainItems, storageKey: String, service: String?, accessGroup: String?,
        bundleIdentifier: String?
    ) {
        self.items = items
        self.accessGroup = accessGroup
        if let service {
            services = [service]
        } else {
            let primary = bundleIdentifier ?? Self.legacyService
            services = primary == Self.legacyService ? [primary] : [primary, Self.legacyService]
        }
        accounts =
            storageKey == SessionImport.supabaseSwiftStorageKey ? [storageKey, Self.oldestAccount] : [storageKey]
    }

    func load() async throws(AuthError) -> Data? {
        let (items, services, accounts, accessGroup) = (self.items, self.services, self.accounts, self.accessGroup)
        return try await queue.run { () throws(AuthError) -> Data? in
            for account in accounts {
                for service in services {
                    if let data = try items.read(service: service, account: account, accessGroup: accessGroup) {
                        return data
                    }
                }
            }
            return nil
        }
    }

    func remove() async throws(AuthError) {
        let (items, services, accounts, accessGroup) = (self.items, self.services, self.accounts, self.accessGroup)
        try await queue.run { () throws(AuthError) in
            var first: AuthError?
            for account in accounts {
                for service in services {
                    do throws(AuthError) {
                        try items.delete(service: service, account: account, accessGroup: accessGroup)
                    } catch {
                        first = first ?? error
                    }
                }
            }
            if let first { throw first }
        }
    }
}
