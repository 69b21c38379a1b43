import Foundation
import LatchkeyTokens

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
