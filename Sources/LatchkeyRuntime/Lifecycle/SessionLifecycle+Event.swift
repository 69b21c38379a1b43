import Foundation
import LatchkeyTokens

extension SessionLifecycle {
    /// Something that happened to the session, as ``AuthClient`` tells it to the lifecycle.
    enum Event: Sendable, Equatable {
        /// The stored session was read (`nil`: nothing stored, or nothing usable).
        case restoreFinished(Session?)
        /// The store could not be read.
        case restoreFailed(AuthError)
        /// A sign-in flow started its requests.
        case signInStarted
        /// A sign-in flow failed; `previous` is the state published before it started.
        case signInFailed(previous: AuthState)
        /// A new session is to become current; `fence` is the generation a sign-in started in, if it has one.
        case installRequested(fence: Int?)
        /// A commit's turn in the store queue came: may it write?
        case commitTurn(generation: Int)
        /// A commit's write finished (`storeError`: it failed, and the session is kept in memory only).
        case commitWritten(Session, generation: Int, storeError: AuthError?)
        /// A sign-out, ``AuthClient/resetTokens()``, an end session, or a refresh rejection (`lockHeld`: the
        /// caller holds the store's refresh lock).
        case sessionCleared(lockHeld: Bool)
        /// A caller asked for the session at `now`.
        case sessionRequested(forceRefresh: Bool, now: Date)
        /// The store's refresh lock could not be taken for the flight of `generation`.
        case refreshLockFailed(AuthError, generation: Int)
        /// The store's refresh lock was taken for the flight of `generation`.
        case refreshLockTaken(generation: Int)
        /// The store's refresh lock was given up.
        case refreshLockReleased
        /// The store, read again under the refresh lock (another process's write may be there).
        case refreshStoreRead(Result<Session?, AuthError>, base: Session, generation: Int, now: Date)
        /// The refresh failed; `answered`: the provider answered (the failure is the answer's validation);
        /// `isReuse`: the provider's code says the refresh token was already used.
        case refreshFailed(AuthError, answered: Bool, isReuse: Bool, generation: Int)
        /// The store, read after a reused-token rejection (another process's write may be there).
        case reuseStoreRead(Session?, base: Session, rejection: AuthError, generation: Int)
        /// The refresh flight ended (its result, whatever it was, was handed out).
        case refreshFlightEnded(id: Int)
        /// Proactive refresh was started (or restarted) with a policy.
        case automaticRefreshStarted(AutomaticRefresh)
        /// Proactive refresh was stopped.
        case automaticRefreshStopped
        /// A proactive refresh check is due at `now`.
        case clockTicked(now: Date)
        /// A proactive refresh check (and the refresh it started, if any) finished at `now`.
        case automaticCheckFinished(now: Date)
    }
}
