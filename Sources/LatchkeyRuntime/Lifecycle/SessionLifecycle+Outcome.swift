import Foundation
import LatchkeyTokens

extension SessionLifecycle {
    /// An event's effects in a fixed shape: the one place an ``Effect`` is interpreted.
    ///
    /// ``init(_:)`` switches over every effect (no `default:`), so a new effect fails to compile until it is
    /// given a field here, and a field is what ``AuthClient`` reads: the announcements it makes at once, the
    /// store removal, the answer for the caller waiting on the session, and the next step of the flow that fed
    /// the event. Nothing reads an effect by its position. ``effects`` gives back the effects an outcome was
    /// built from, so a test proves that no effect is dropped on the way.
    struct Outcome: Sendable, Equatable {
        /// Something the client announces at once, in order (no waiting).
        enum Announcement: Sendable, Equatable {
            /// Publish a state to ``AuthClient/stateUpdates()``.
            case state(AuthState)
            /// Publish the session to ``AuthClient/observeTokens()``.
            case tokens(Session?)
            /// Start the proactive refresh checks with a policy (replacing running ones).
            case startAutomaticChecks(AutomaticRefresh)
            /// Stop the proactive refresh checks.
            case stopAutomaticChecks
            /// Tell the logger.
            case note(Note)
            /// A result arrived after a sign-out or user switch and was dropped (stored and published nothing).
            case droppedLateResult
        }

        /// The answer for the caller waiting on the session.
        enum Answer: Sendable, Equatable {
            /// Hand this session to the caller.
            case deliver(Session)
            /// Fail the caller.
            case fail(Failure)
            /// Wait for the refresh flight in progress.
            case joinRefresh(flightID: Int)
            /// Start refresh flight `flightID` from `base`, fenced by `generation`, and wait for it.
            case startRefresh(flightID: Int, base: Session, generation: Int)
        }

        /// The next step of the flow that fed the event.
        enum Step: Sendable, Equatable {
            /// Store the new session as generation `generation` (under the store's refresh lock when
            /// `takesRefreshLock`).
            case commit(generation: Int, takesRefreshLock: Bool)
            /// The commit may write the store now.
            case writeSession
            /// Read the store again (the refresh lock is held).
            case rereadStore
            /// Send the refresh request with `base`'s refresh token.
            case sendRefresh(base: Session)
            /// Read the store for a session another process refreshed (after a reused-token rejection).
            case lookForNewerStoredSession
            /// Refresh now (a proactive check found the token inside its margin).
            case refreshAutomatically
            /// Run the next proactive refresh check at this instant.
            case scheduleAutomaticCheck(at: Date)
        }

        /// What the client announces at once, in order.
        var announcements: [Announcement] = []
        /// Remove the stored session, and whether under the store's refresh lock (`nil`: keep it).
        var removalTakesRefreshLock: Bool?
        /// A commit's store write failed; the session is current in memory only.
        var storeFailure: AuthError?
        /// The answer for the caller waiting on the session, if the event settles one.
        var answer: Answer?
        /// The next step of the flow that fed the event, if any.
        var step: Step?

        /// Sorts effects into their fields.
        /// - Parameter effects: What ``SessionLifecycle/handle(_:)`` returned.
        init(_ effects: [Effect]) {
            for effect in effects {
                switch effect {
                case .publishState(let state): announcements.append(.state(state))
                case .publishTokens(let session): announcements.append(.tokens(session))
                case .startAutomaticChecks(let policy): announcements.append(.startAutomaticChecks(policy))
                case .stopAutomaticChecks: announcements.append(.stopAutomaticChecks)
                case .log(let note): announcements.append(.note(note))
                case .dropLateResult: announcements.append(.droppedLateResult)
                case .removeStoredSession(let takesRefreshLock): removalTakesRefreshLock = takesRefreshLock
                case .reportStoreFailure(let error): storeFailure = error
                case .deliver(let session): answer = .deliver(session)
                case .fail(let failure): answer = .fail(failure)
                case .joinRefresh(let flightID): answer = .joinRefresh(flightID: flightID)
                case .startRefresh(let flightID, let base, let generation):
                    answer = .startRefresh(flightID: flightID, base: base, generation: generation)
                case .commit(let generation, let takesRefreshLock):
                    step = .commit(generation: generation, takesRefreshLock: takesRefreshLock)
                case .writeSession: step = .writeSession
                case .rereadStore: step = .rereadStore
                case .sendRefresh(let base): step = .sendRefresh(base: base)
                case .lookForNewerStoredSession: step = .lookForNewerStoredSession
                case .refreshAutomatically: step = .refreshAutomatically
                case .scheduleAutomaticCheck(let instant): step = .scheduleAutomaticCheck(at: instant)
                }
            }
        }

        /// The failure the answer carries, if the event fails the caller.
        var failure: Failure? {
            if case .fail(let failure)? = answer { return failure }
            return nil
        }

        /// Whether the event's result was dropped as late.
        var droppedLateResult: Bool { announcements.contains(.droppedLateResult) }

        /// The effects this outcome was built from (announcements in order, then the rest), for tests that
        /// prove nothing is lost between the lifecycle and the client.
        var effects: [Effect] {
            var effects: [Effect] = announcements.map { announcement in
                switch announcement {
                case .state(let state): .publishState(state)
                case .tokens(let session): .publishTokens(session)
                case .startAutomaticChecks(let policy): .startAutomaticChecks(policy)
                case .stopAutomaticChecks: .stopAutomaticChecks
                case .note(let note): .log(note)
                case .droppedLateResult: .dropLateResult
                }
            }
            if let removalTakesRefreshLock {
                effects.append(.removeStoredSession(takesRefreshLock: removalTakesRefreshLock))
            }
            if let storeFailure { effects.append(.reportStoreFailure(storeFailure)) }
            switch answer {
            case nil: break
            case .deliver(let session)?: effects.append(.deliver(session))
            case .fail(let failure)?: effects.append(.fail(failure))
            case .joinRefresh(let flightID)?: effects.append(.joinRefresh(flightID: flightID))
            case .startRefresh(let flightID, let base, let generation)?:
                effects.append(.startRefresh(flightID: flightID, base: base, generation: generation))
            }
            switch step {
            case nil: break
            case .commit(let generation, let takesRefreshLock)?:
                effects.append(.commit(generation: generation, takesRefreshLock: takesRefreshLock))
            case .writeSession?: effects.append(.writeSession)
            case .rereadStore?: effects.append(.rereadStore)
            case .sendRefresh(let base)?: effects.append(.sendRefresh(base: base))
            case .lookForNewerStoredSession?: effects.append(.lookForNewerStoredSession)
            case .refreshAutomatically?: effects.append(.refreshAutomatically)
            case .scheduleAutomaticCheck(let instant)?: effects.append(.scheduleAutomaticCheck(at: instant))
            }
            return effects
        }
    }
}
