import Foundation

/// A ``SessionStore`` whose operations finish without waiting for anything (a store in memory).
///
/// ``AuthClient`` calls these in place of the `async` requirements, on its own actor: an `async` store method
/// runs off the actor, and from inside the task that keeps a store write safe from the caller's cancellation
/// that move is a thread hand-off (a wake-up of another thread) for every load, save and removal.
/// Such a store is one process's alone: it has no refresh lock (its ``SessionStore/withExclusiveRefresh(key:_:)``
/// is the default, which runs the body at once), and the client does not ask it for one.
/// Internal: a store supplied by an app always goes through the `async` requirements.
protocol SynchronousSessionStore: SessionStore {
    /// ``SessionStore/load(key:)``, without suspending.
    func loadNow(key: String) throws(AuthError) -> Data?
    /// ``SessionStore/save(_:key:)``, without suspending.
    func saveNow(_ data: Data, key: String) throws(AuthError)
    /// ``SessionStore/remove(key:)``, without suspending.
    func removeNow(key: String) throws(AuthError)
}

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
}

extension AuthClient {
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
