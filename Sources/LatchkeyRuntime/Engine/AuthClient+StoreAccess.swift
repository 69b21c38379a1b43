import Foundation
import LatchkeyTokens

/// How the engine reaches its store: in place for a ``SynchronousSessionStore``, through the `async`
/// requirements otherwise.
extension AuthClient {
    /// Reads a record from the store (in place for a ``SynchronousSessionStore``).
    func loadRecord(key: String) async throws(AuthError) -> Data? {
        if let synchronousStore { return try synchronousStore.loadNow(key: key) }
        return try await options.store.load(key: key)
    }

    /// Writes a record to the store (in place for a ``SynchronousSessionStore``).
    func saveRecord(_ data: Data, key: String) async throws(AuthError) {
        if let synchronousStore { return try synchronousStore.saveNow(data, key: key) }
        try await options.store.save(data, key: key)
    }

    /// Removes a record from the store (in place for a ``SynchronousSessionStore``).
    func removeRecord(key: String) async throws(AuthError) {
        if let synchronousStore { return try synchronousStore.removeNow(key: key) }
        try await options.store.remove(key: key)
    }

    /// Runs `body` on this actor under the store's refresh lock (see
    /// ``SessionStore/withExclusiveRefresh(key:_:)``); a ``SynchronousSessionStore`` has none, and `body` runs at
    /// once, without leaving the actor.
    /// - Throws: `store_unavailable` when the lock cannot be taken.
    func withRefreshLock<T: Sendable>(
        _ body: @escaping @Sendable (isolated AuthClient) async -> T
    ) async throws(AuthError) -> T {
        if synchronousStore != nil { return await body(self) }
        return try await options.store.withExclusiveRefresh(key: storeKey) { () async -> T in await body(self) }
    }
}
