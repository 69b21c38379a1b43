import Foundation
import LatchkeyPlatform
import LatchkeyTokens

/// A store that lives as long as the process: the opt-out from the persistent default
/// (``AuthClientOptions/defaultStore(environment:)``), for tests, previews and apps that must not persist.
public final class InMemorySessionStore: SessionStore {
    private let records: Locked<[String: Data]>

    /// Creates a store, optionally with records already in it.
    /// - Parameter records: Initial records by key.
    public init(records: [String: Data] = [:]) {
        self.records = Locked(records)
    }

    /// Reads the record under a key.
    public func load(key: String) async throws(AuthError) -> Data? {
        records.withLock { $0[key] }
    }

    /// Writes a record.
    public func save(_ data: Data, key: String) async throws(AuthError) {
        records.withLock { $0[key] = data }
    }

    /// Removes a record.
    public func remove(key: String) async throws(AuthError) {
        _ = records.withLock { $0.removeValue(forKey: key) }
    }

    /// The keys that hold a record, sorted.
    public var keys: [String] { records.withLock { $0.keys.sorted() } }
}

extension InMemorySessionStore: SynchronousSessionStore {
    func loadNow(key: String) throws(AuthError) -> Data? { records.withLock { $0[key] } }

    func saveNow(_ data: Data, key: String) throws(AuthError) { records.withLock { $0[key] = data } }

    func removeNow(key: String) throws(AuthError) { _ = records.withLock { $0.removeValue(forKey: key) } }
}
