import Foundation
import LatchkeyTokens

extension SessionLifecycle {
    /// What ``AuthClient`` must do after an event; interpreted in one place, ``Outcome/init(_:)``.
    enum Effect: Sendable, Equatable {
        /// Publish a state to ``AuthClient/stateUpdates()``.
        case publishState(AuthState)
        /// Publish the session to ``AuthClient/observeTokens()``.
        case publishTokens(Session?)
        /// Store the new session as generation `generation` (under the store's refresh lock when
        /// `takesRefreshLock`), then report ``Event/commitTurn(generation:)`` and ``Event/commitWritten(_:generation:storeError:)``.
        case commit(generation: Int, takesRefreshLock: Bool)
        /// The commit may write the store now.
        case writeSession
        /// A commit's store write failed; the session is current in memory only.
        case reportStoreFailure(AuthError)
        /// Remove the stored session (under the store's refresh lock when `takesRefreshLock`).
        case removeStoredSession(takesRefreshLock: Bool)
        /// Start refresh flight `flightID` from `base`, fenced by `generation`.
        case startRefresh(flightID: Int, base: Session, generation: Int)
        /// Wait for the refresh flight in progress.
        case joinRefresh(flightID: Int)
        /// Read the store again (the refresh lock is held).
        case rereadStore
        /// Send the refresh request with `base`'s refresh token.
        case sendRefresh(base: Session)
        /// Read the store for a session another process refreshed (after a reused-token rejection).
        case lookForNewerStoredSession
        /// Hand this session to the caller.
        case deliver(Session)
        /// Fail the caller.
        case fail(Failure)
        /// A result arrived after a sign-out or user switch: drop it, store and publish nothing.
        case dropLateResult
        /// Start the proactive refresh checks with a policy (replacing running ones); the first check is one
        /// interval from the clock's present.
        case startAutomaticChecks(AutomaticRefresh)
        /// Stop the proactive refresh checks.
        case stopAutomaticChecks
        /// Run the next proactive refresh check at this instant.
        case scheduleAutomaticCheck(at: Date)
        /// Refresh now (a proactive check found the token inside its margin).
        case refreshAutomatically
        /// Tell the logger.
        case log(Note)
    }

    /// Why the lifecycle fails a caller.
    enum Failure: Sendable, Equatable {
        /// Pass on an error of the store, the lock or the provider.
        case error(AuthError)
        /// Nobody is signed in (`session_missing`).
        case nobodySignedIn
        /// The session expired and cannot be refreshed (`session_expired`); it is gone.
        case expiredUnrefreshable
        /// A sign-in completed after a sign-out or another sign-in (`login_cancelled`); its session is dropped.
        case lateSignIn
        /// The session ended while the refresh ran (`session_missing`).
        case endedWhileRefreshing
    }

    /// A diagnostic the lifecycle asks for (never a token).
    enum Note: Sendable, Equatable {
        /// A forced refresh of a session that cannot be refreshed kept it as it is.
        case unrefreshableKept
        /// A sign-in's session arrived after a sign-out or another sign-in.
        case lateSignInDropped
        /// The refresh lock could not be taken (the store's error, which holds no token).
        case refreshDidNotStart(AuthError)
        /// Another process stored a fresher session, adopted instead of refreshing.
        case adoptedNewerSession
        /// Another process stored a newer session that is expired too; it is refreshed.
        case adoptedExpiredSession
        /// The refresh token was already used, and another process's session was adopted.
        case adoptedAfterReuse
        /// The refreshed ID token failed validation: signed out.
        case refreshedIDTokenInvalid
        /// The provider rejected the refresh: signed out.
        case refreshRejected(AuthError.Code)
    }
}
