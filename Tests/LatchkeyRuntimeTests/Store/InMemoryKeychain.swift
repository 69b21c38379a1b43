import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime

/// An in-memory keychain with `SecItem`'s matching rules, for the Keychain store's policy on Linux: a query
/// without an access group matches every group and adds to ``defaultGroup`` (an add reports the group); a label in a query must match
/// exactly; an add (or a move into a group) where the item exists gets `errSecDuplicateItem`.
final class InMemoryKeychain: KeychainOperations {
    struct Address: Hashable {
        var service: String
        var account: String
        var group: String
    }

    private struct State {
        var items: [Address: KeychainItem] = [:]
        var calls: [String] = []
        var statusOverrides: [String: Int32] = [:]
        var beforeAdd: [@Sendable (InMemoryKeychain) -> Void] = []
    }

    /// The group an add without a group goes to (the app's first keychain access group).
    let defaultGroup: String
    private let state = Locked(State())

    init(defaultGroup: String = "TEAM.dev.acme.app") {
        self.defaultGroup = defaultGroup
    }

    /// Every call, as `operation account [group]` (a probe's random account as `probe`).
    var calls: [String] { state.withLock { $0.calls } }

    /// The items, by address.
    var items: [Address: KeychainItem] { state.withLock { $0.items } }

    /// Makes the next calls of an operation (`read`, `add`, `update`, `delete`) return `status`.
    func fail(_ operation: String, with status: Int32?) { state.withLock { $0.statusOverrides[operation] = status } }

    /// Runs `action` just before the next add (another process's write racing this one).
    func beforeNextAdd(_ action: @escaping @Sendable (InMemoryKeychain) -> Void) {
        state.withLock { $0.beforeAdd.append(action) }
    }

    /// Puts an item in place directly.
    func put(_ data: Data, service: String, account: String, group: String, label: String? = nil) {
        state.withLock {
            $0.items[Address(service: service, account: account, group: group)] = KeychainItem(
                data: data, label: label, accessGroup: group)
        }
    }

    private func matches(_ query: KeychainQuery) -> (inout State) -> [Address] {
        { state in
            state.items.filter { address, item in
                address.service == query.service && address.account == query.account
                    && (query.accessGroup == nil || query.accessGroup == address.group)
                    && (query.label == nil || query.label == item.label)
            }.keys.sorted { $0.group < $1.group }
        }
    }

    private func begin(_ operation: String, _ query: KeychainQuery, in state: inout State) -> Int32? {
        let account =
            query.account.hasPrefix(KeychainRecordStore.probeAccountPrefix) ? "probe" : query.account
        state.calls.append("\(operation) \(account)" + (query.accessGroup.map { " \($0)" } ?? ""))
        return state.statusOverrides[operation]
    }

    func read(_ query: KeychainQuery) -> (status: Int32, item: KeychainItem?) {
        state.withLock { state in
            if let status = begin("read", query, in: &state) { return (status, nil) }
            guard let address = matches(query)(&state).first else { return (KeychainStatus.itemNotFound, nil) }
            return (KeychainStatus.success, state.items[address])
        }
    }

    func add(_ query: KeychainQuery, data: Data, label: String?) -> Int32 {
        addReportingGroup(query, data: data, label: label).status
    }

    func addReportingGroup(_ query: KeychainQuery, data: Data, label: String?) -> (status: Int32, group: String?) {
        let actions = state.withLock { state in
            defer { state.beforeAdd = [] }
            return state.beforeAdd
        }
        for action in actions { action(self) }
        return state.withLock { state in
            if let status = begin("add", query, in: &state) { return (status, nil) }
            let address = Address(
                service: query.service, account: query.account, group: query.accessGroup ?? defaultGroup)
            guard state.items[address] == nil else { return (KeychainStatus.duplicateItem, nil) }
            state.items[address] = KeychainItem(data: data, label: label ?? query.label, accessGroup: address.group)
            return (KeychainStatus.success, address.group)
        }
    }

    func update(_ query: KeychainQuery, data: Data?, label: String?, accessGroup: String?) -> Int32 {
        state.withLock { state in
            if let status = begin("update", query, in: &state) { return status }
            let found = matches(query)(&state)
            guard !found.isEmpty else { return KeychainStatus.itemNotFound }
            for address in found {
                var item = state.items[address]!
                if let data { item.data = data }
                if let label { item.label = label }
                var target = address
                if let accessGroup {
                    target.group = accessGroup
                    if target != address, state.items[target] != nil { return KeychainStatus.duplicateItem }
                    item.accessGroup = accessGroup
                }
                state.items[address] = nil
                state.items[target] = item
            }
            return KeychainStatus.success
        }
    }

    func delete(_ query: KeychainQuery) -> Int32 {
        state.withLock { state in
            if let status = begin("delete", query, in: &state) { return status }
            let found = matches(query)(&state)
            guard !found.isEmpty else { return KeychainStatus.itemNotFound }
            for address in found { state.items[address] = nil }
            return KeychainStatus.success
        }
    }
}
