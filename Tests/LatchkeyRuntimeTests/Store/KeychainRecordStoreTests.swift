import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
import Testing

/// Issue 17, item 6: the Keychain store's policy (duplicates, access-group migration, removal, error
/// mapping) over an in-memory keychain with `SecItem`'s matching rules.
@Suite("Store: Keychain policy")
struct KeychainRecordStoreTests {
    private let shared = "TEAM.dev.acme.shared"
    private let record = Data(#"{"session":"record"}"#.utf8)

    private func store(_ keychain: InMemoryKeychain, group: String? = "TEAM.dev.acme.shared") -> KeychainRecordStore {
        KeychainRecordStore(operations: keychain, service: "dev.latchkey.sessions", accessGroup: group)
    }

    @Test("a write that loses an add race to another writer becomes an update, not store_failed")
    func duplicateAddBecomesUpdate() async throws {
        let keychain = InMemoryKeychain()
        let other = Data("other process".utf8)
        keychain.beforeNextAdd { keychain in
            keychain.put(other, service: "dev.latchkey.sessions", account: "acme", group: "TEAM.dev.acme.shared")
        }
        try await store(keychain).save(record, key: "acme")
        #expect(try await store(keychain).load(key: "acme") == record)
        #expect(
            keychain.calls.prefix(3) == [
                "update acme TEAM.dev.acme.shared", "add acme TEAM.dev.acme.shared", "update acme TEAM.dev.acme.shared",
            ])
    }

    @Test("a record written before the access group was set is moved into the group on the first read")
    func legacyRecordIsMigrated() async throws {
        let keychain = InMemoryKeychain()
        keychain.put(record, service: "dev.latchkey.sessions", account: "acme", group: keychain.defaultGroup)
        #expect(try await store(keychain).load(key: "acme") == record)
        #expect(keychain.items.keys.map(\.group) == [shared])
        // Later reads find it in the group at once.
        let before = keychain.calls.count
        #expect(try await store(keychain).load(key: "acme") == record)
        #expect(keychain.calls.dropFirst(before) == ["read acme TEAM.dev.acme.shared"])
    }

    @Test("when both copies exist the group's copy wins and the old one is deleted")
    func migrationKeepsTheGroupsCopy() async throws {
        let keychain = InMemoryKeychain()
        let newer = Data("newer".utf8)
        keychain.put(record, service: "dev.latchkey.sessions", account: "acme", group: keychain.defaultGroup)
        keychain.put(newer, service: "dev.latchkey.sessions", account: "acme", group: shared)
        // The group's copy appeared right after the first read missed it (an extension wrote it).
        let racing = RacingReadKeychain(keychain)
        let loaded = try await KeychainRecordStore(
            operations: racing, service: "dev.latchkey.sessions", accessGroup: shared
        ).load(key: "acme")
        #expect(loaded == newer)
        #expect(keychain.items.keys.map(\.group) == [shared])
    }

    @Test("a sign-out removes the record in the group and in the default group: an old copy never comes back")
    func removeDeletesEveryGroup() async throws {
        let keychain = InMemoryKeychain()
        keychain.put(record, service: "dev.latchkey.sessions", account: "acme", group: keychain.defaultGroup)
        keychain.put(record, service: "dev.latchkey.sessions", account: "acme", group: shared)
        try await store(keychain).remove(key: "acme")
        #expect(keychain.items.isEmpty)
        #expect(try await store(keychain).load(key: "acme") == nil)
    }

    @Test("the first write into the group deletes the copy in the old group")
    func firstWriteIntoGroupDeletesLegacyCopy() async throws {
        let keychain = InMemoryKeychain()
        keychain.put(Data("old".utf8), service: "dev.latchkey.sessions", account: "acme", group: keychain.defaultGroup)
        try await store(keychain).save(record, key: "acme")
        #expect(keychain.items.keys.map(\.group) == [shared])
        #expect(keychain.items.values.map(\.data) == [record])
    }

    @Test("without an access group nothing is migrated and writes go to the default group")
    func noGroup() async throws {
        let keychain = InMemoryKeychain()
        try await store(keychain, group: nil).save(record, key: "acme")
        #expect(keychain.items.keys.map(\.group) == [keychain.defaultGroup])
        #expect(try await store(keychain, group: nil).load(key: "acme") == record)
    }

    @Test(
        "statuses map to stable codes with their own messages, never the record",
        arguments: [
            ("read", KeychainStatus.interactionNotAllowed, AuthError.Code.storeUnavailable, "locked"),
            ("read", KeychainStatus.missingEntitlement, .storeUnavailable, "entitlement"),
            ("read", -25291, .storeUnavailable, "status -25291"),
            ("update", KeychainStatus.missingEntitlement, .storeFailed, "entitlement"),
            ("update", -25291, .storeFailed, "status -25291"),
            ("delete", KeychainStatus.interactionNotAllowed, .storeFailed, "locked"),
        ])
    func statusMapping(operation: String, status: Int32, code: AuthError.Code, phrase: String) async {
        let keychain = InMemoryKeychain()
        keychain.put(record, service: "dev.latchkey.sessions", account: "acme", group: shared)
        keychain.fail(operation, with: status)
        let error = await #expect(throws: AuthError.self) {
            switch operation {
            case "read": _ = try await store(keychain).load(key: "acme")
            case "update": try await store(keychain).save(record, key: "acme")
            default: try await store(keychain).remove(key: "acme")
            }
        }
        #expect(error?.code == code)
        #expect(error?.message.contains(phrase) == true, "\(error?.message ?? "")")
        #expect(error?.description.contains("record") == false)
    }

    @Test("a locked keychain is never read as signed out")
    func lockedIsNotSignedOut() async {
        let keychain = InMemoryKeychain()
        keychain.fail("read", with: KeychainStatus.interactionNotAllowed)
        await #expect(throws: AuthError.self) { _ = try await store(keychain).load(key: "acme") }
    }
}

/// A keychain whose first read misses (the group's copy is written by another process right after).
private final class RacingReadKeychain: KeychainOperations {
    private let base: InMemoryKeychain
    private let missed = Locked(false)

    init(_ base: InMemoryKeychain) { self.base = base }

    func read(_ query: KeychainQuery) -> (status: Int32, item: KeychainItem?) {
        let miss = missed.withLock { missed in
            defer { missed = true }
            return !missed
        }
        return miss ? (KeychainStatus.itemNotFound, nil) : base.read(query)
    }
    func add(_ query: KeychainQuery, data: Data, label: String?) -> Int32 { base.add(query, data: data, label: label) }
    func addReportingGroup(_ query: KeychainQuery, data: Data, label: String?) -> (status: Int32, group: String?) {
        base.addReportingGroup(query, data: data, label: label)
    }
    func update(_ query: KeychainQuery, data: Data?, label: String?, accessGroup: String?) -> Int32 {
        base.update(query, data: data, label: label, accessGroup: accessGroup)
    }
    func delete(_ query: KeychainQuery) -> Int32 { base.delete(query) }
}
