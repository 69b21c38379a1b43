import Foundation
@_spi(Generated) import LatchkeyRuntime
import Testing

/// Issue 27, item 4.2: a Keychain store without an access group keeps to the app's default group, found out
/// once, instead of reading, updating and deleting its key in every group the app can reach.
@Suite("Store: Keychain default access group")
struct KeychainDefaultGroupTests {
    private let record = Data(#"{"session":"record"}"#.utf8)
    /// A group of the team that another app of it also lists (the app can reach it; the store must not).
    private let family = "TEAM.dev.acme.family"

    private func store(_ keychain: InMemoryKeychain) -> KeychainRecordStore {
        KeychainRecordStore(
            operations: keychain, service: "dev.latchkey.sessions", accessGroup: nil, bundleIdentifier: "dev.acme.app")
    }

    @Test("another group's item under the same key is never read, overwritten or deleted")
    func otherGroupsAreLeftAlone() async throws {
        let keychain = InMemoryKeychain(defaultGroup: "TEAM.dev.acme.app")
        let theirs = Data("another app's session".utf8)
        keychain.put(theirs, service: "dev.latchkey.sessions", account: "acme", group: family)
        #expect(try await store(keychain).load(key: "acme") == nil)
        try await store(keychain).save(record, key: "acme")
        #expect(try await store(keychain).load(key: "acme") == record)
        try await store(keychain).remove(key: "acme")
        let left = keychain.items.map { ($0.key.group, $0.value.data) }
        #expect(left.map(\.0) == [family])
        #expect(left.map(\.1) == [theirs])
    }

    @Test("every call names the group, except the probe that finds it out, once per store")
    func everyCallIsScoped() async throws {
        let keychain = InMemoryKeychain(defaultGroup: "TEAM.dev.acme.app")
        let store = store(keychain)
        try await store.save(record, key: "acme")
        _ = try await store.load(key: "acme")
        try await store.remove(key: "acme")
        #expect(
            keychain.calls == [
                "add probe", "delete probe TEAM.dev.acme.app",
                "update acme TEAM.dev.acme.app", "add acme TEAM.dev.acme.app",
                "read acme TEAM.dev.acme.app",
                "delete acme TEAM.dev.acme.app",
            ])
        #expect(keychain.items.isEmpty)
    }

    @Test(
        "a probe that fails says why, with the operation's code, and is tried again next time",
        arguments: [
            (KeychainStatus.interactionNotAllowed, "read", AuthError.Code.storeUnavailable, "locked"),
            (KeychainStatus.missingEntitlement, "save", .storeFailed, "entitlement"),
        ])
    func probeFailure(status: Int32, operation: String, code: AuthError.Code, phrase: String) async throws {
        let keychain = InMemoryKeychain(defaultGroup: "TEAM.dev.acme.app")
        let store = store(keychain)
        keychain.fail("add", with: status)
        let error = await #expect(throws: AuthError.self) {
            if operation == "read" {
                _ = try await store.load(key: "acme")
            } else {
                try await store.save(record, key: "acme")
            }
        }
        #expect(error?.code == code)
        #expect(error?.message.contains(phrase) == true, "\(error?.message ?? "")")
        keychain.fail("add", with: nil)
        try await store.save(record, key: "acme")
        #expect(keychain.items.keys.map(\.group) == ["TEAM.dev.acme.app"])
    }

    @Test(
        "a group is shared unless it is the default group and this app's own app ID",
        arguments: [
            ("TEAM.dev.acme.app", false, "dev.acme.app" as String?, false),
            ("TEAM.dev.acme.app", true, "dev.acme.app", true),  // passed explicitly: shared on purpose
            ("TEAM.dev.acme.shared", false, "dev.acme.app", true),  // Keychain Sharing's first group
            ("TEAM.dev.acme.app.widget", false, "dev.acme.app", true),  // an extension's app ID
            ("TEAM.dev.acme.app", false, "dev.acme.app.widget", true),  // the app's group, seen by its extension
            ("group.dev.acme", false, "acme", true),  // not a team prefix
            ("TEAM.dev.acme.app", false, nil, true),  // no bundle identifier to compare
            ("TEAM.dev.acme.app", false, "", true),
            (".dev.acme.app", false, "dev.acme.app", true),  // no prefix
            ("dev.acme.app", false, "dev.acme.app", true),
        ])
    func sharingRule(group: String, explicit: Bool, bundleIdentifier: String?, shared: Bool) {
        #expect(
            KeychainGroupSharing.mayBeShared(group: group, explicit: explicit, bundleIdentifier: bundleIdentifier)
                == shared)
    }
}
