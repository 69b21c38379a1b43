import Foundation
import LatchkeyTokens

/// Keeps sessions (and pending browser sign-ins) between launches.
///
/// A store holds opaque records by key. Reading distinguishes "nothing stored" (`nil`) from "could not
/// read" (`store_unavailable`): a locked keychain or an unreadable file must never look like a signed-out
/// user.
public protocol SessionStore: Sendable {
    /// Reads the record stored under a key.
    /// - Parameter key: The key.
    /// - Returns: The record, or `nil` when nothing is stored.
    /// - Throws: `store_unavailable` when the store could not be read.
    func load(key: String) async throws(AuthError) -> Data?

    /// Writes a record, replacing any under the same key.
    /// - Parameters:
    ///   - data: The record.
    ///   - key: The key.
    /// - Throws: `store_failed` when the record could not be written.
    func save(_ data: Data, key: String) async throws(AuthError)

    /// Removes the record under a key; removing nothing is not an error.
    /// - Parameter key: The key.
    /// - Throws: `store_failed` when the record could not be removed.
    func remove(key: String) async throws(AuthError)

    /// Runs a refresh while holding the store's exclusive refresh lock for a key, so that processes sharing
    /// the store (an app and its extensions) never refresh the same session at once.
    ///
    /// `AuthClient` re-reads the store under the lock: a process that waited adopts the session the other
    /// one stored instead of sending its refresh token again, which a rotating provider would reject as
    /// reused. ``FileSessionStore`` locks a file beside the record; the default implementation runs `body`
    /// at once, for stores that only one process uses.
    /// - Parameters:
    ///   - key: The key of the session record.
    ///   - body: The refresh; it must not take the same lock again.
    /// - Returns: What `body` returns.
    /// - Throws: `store_unavailable` when the lock cannot be taken (the session is kept); what `body` throws.
    func withExclusiveRefresh<T: Sendable>(
        key: String, _ body: @Sendable () async throws(AuthError) -> T
    ) async throws(AuthError) -> T
}

extension SessionStore {
    /// Runs `body` at once: a store that only one process uses needs no lock (`AuthClient` runs one
    /// refresh at a time per client).
    public func withExclusiveRefresh<T: Sendable>(
        key: String, _ body: @Sendable () async throws(AuthError) -> T
    ) async throws(AuthError) -> T {
        try await body()
    }
}
