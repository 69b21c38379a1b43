import Foundation

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
}
