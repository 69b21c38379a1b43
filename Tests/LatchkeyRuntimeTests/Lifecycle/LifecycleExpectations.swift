import Foundation

@_spi(Generated) @testable import LatchkeyRuntime

/// The lifecycle's bookkeeping, compared whole.
struct LifecycleSnapshot: Equatable, CustomStringConvertible {
    var phase: SessionLifecycle.Phase
    var generation: Int
    var flight: SessionLifecycle.Flight?
    var lastFlightID: Int
    var refreshesHoldingLock: Int
    var automaticRefresh: SessionLifecycle.AutomaticRefreshState

    init(_ lifecycle: SessionLifecycle) {
        phase = lifecycle.phase
        generation = lifecycle.generation
        flight = lifecycle.flight
        lastFlightID = lifecycle.lastFlightID
        refreshesHoldingLock = lifecycle.refreshesHoldingLock
        automaticRefresh = lifecycle.automaticRefresh
    }

    var session: Session? {
        if case .signedIn(let session) = phase { return session }
        return nil
    }

    var description: String {
        "phase: \(phase), generation: \(generation), flight: \(String(describing: flight)), "
            + "lastFlightID: \(lastFlightID), locks: \(refreshesHoldingLock), automatic: \(automaticRefresh)"
    }
}

/// The transition table, written as the rules the runtime promises (one rule per event kind), independently of
/// ``SessionLifecycle``'s code: the state after the event, and the effects in order.
enum LifecycleExpectations {
    typealias F = LifecycleFixtures
    typealias Effect = SessionLifecycle.Effect

    static func expected(_ stimulus: LifecycleStimulus, from before: LifecycleSnapshot)
        -> (LifecycleSnapshot, [Effect])
    {
        var after = before
        let loaded = before.phase != .unloaded
        let session = before.session
        let base = session ?? F.current
        let refreshCounts = session != nil  // a refresh result of the current generation needs a session

        func settled(_ session: Session?) -> [Effect] {
            [.publishState(session.map { .signedIn($0.userOrPlaceholder) } ?? .signedOut), .publishTokens(session)]
        }
        // A late result: dropped; the caller gets the session in memory, if any. Nothing else changes.
        let discarded: [Effect] = [.dropLateResult, session.map(Effect.deliver) ?? .fail(.endedWhileRefreshing)]
        func cleared(lockHeld: Bool) -> [Effect] {
            after.generation += 1
            after.flight = nil
            after.phase = .signedOut
            return [
                .publishState(.signedOut), .publishTokens(nil),
                .removeStoredSession(takesRefreshLock: !lockHeld && before.refreshesHoldingLock == 0),
            ]
        }
        func startFlight() -> [Effect] {
            after.lastFlightID += 1
            after.flight = SessionLifecycle.Flight(id: after.lastFlightID, generation: before.generation)
            return [.startRefresh(flightID: after.lastFlightID, base: base, generation: before.generation)]
        }
        func adopt(_ stored: Session) -> [Effect] {
            after.phase = .signedIn(stored)
            return settled(stored)
        }

        let effects: [Effect]
        switch stimulus {
        // Restore: only the first settles; a restore that finishes after anything settled the state is dropped.
        case .restoreFoundSession:
            if loaded { return (before, []) }
            effects = adopt(F.newer)
        case .restoreFoundNothing:
            if loaded { return (before, []) }
            after.phase = .signedOut
            effects = settled(nil)
        case .restoreFailed:
            effects = loaded ? [] : [.publishState(.failed(F.storeDown)), .fail(.error(F.storeDown))]

        // Sign-in progress is published; a failure publishes the settled state, or the earlier one.
        case .signInStarted: effects = [.publishState(.authenticating)]
        case .signInFailed: effects = loaded ? settled(session) : [.publishState(.loading)]

        // Install: a new generation (in-flight refreshes are fenced out), committed under the refresh lock unless
        // this client's own refresh holds it. A fenced sign-in overtaken by a sign-out is dropped.
        case .installUnfenced, .installFencedCurrent:
            after.generation += 1
            after.flight = nil
            effects = [.commit(generation: after.generation, takesRefreshLock: before.refreshesHoldingLock == 0)]
        case .installFencedStale: effects = [.log(.lateSignInDropped), .fail(.lateSignIn)]
        case .commitTurnCurrent: effects = [.writeSession]
        case .commitTurnStale, .commitWrittenStale: effects = [.dropLateResult]
        case .commitWrittenCurrent: effects = adopt(F.installed)
        case .commitWrittenNotStored: effects = adopt(F.installed) + [.reportStoreFailure(F.diskFull)]

        // Clear: a new generation, signed out, the record removed (without the lock when this client holds it).
        case .signOut: effects = cleared(lockHeld: false)
        case .clearedUnderLock: effects = cleared(lockHeld: true)

        // Asking for the session.
        case .askedFresh:
            effects = session.map { [.deliver($0)] } ?? [.fail(.nobodySignedIn)]
        case .askedExpiring, .askedForced, .askedExpired:
            guard let session else {
                effects = [.fail(.nobodySignedIn)]
                break
            }
            if let flight = before.flight {
                effects = [.joinRefresh(flightID: flight.id)]
            } else if session.refreshToken == nil {
                switch stimulus {
                case .askedExpired: effects = cleared(lockHeld: false) + [.fail(.expiredUnrefreshable)]
                case .askedForced: effects = [.log(.unrefreshableKept), .deliver(session)]
                default: effects = [.deliver(session)]
                }
            } else {
                effects = startFlight()
            }

        // The refresh lock.
        case .lockFailedCurrent:
            effects = refreshCounts ? [.log(.refreshDidNotStart(F.storeDown)), .fail(.error(F.storeDown))] : discarded
        case .lockFailedStale: effects = discarded
        case .lockTakenCurrent:
            after.refreshesHoldingLock += 1
            effects = refreshCounts ? [.rereadStore] : discarded
        case .lockTakenStale:
            after.refreshesHoldingLock += 1
            effects = discarded
        case .lockReleased:
            after.refreshesHoldingLock = max(0, before.refreshesHoldingLock - 1)
            effects = []

        // The store read again under the lock: another process's write is adopted.
        case .storeReadNothingNew: effects = refreshCounts ? [.sendRefresh(base: base)] : discarded
        case .storeReadNewer:
            effects = refreshCounts ? adopt(F.newer) + [.log(.adoptedNewerSession), .deliver(F.newer)] : discarded
        case .storeReadNewerExpired:
            effects =
                refreshCounts
                ? adopt(F.newer) + [.log(.adoptedExpiredSession), .sendRefresh(base: F.newer)] : discarded
        case .storeReadFailed: effects = refreshCounts ? [.fail(.error(F.storeDown))] : discarded
        case .storeReadStale: effects = discarded

        // The refresh failed: transport keeps the session, a rejection ends it, a reuse looks in the store.
        case .refreshTransportFailure: effects = refreshCounts ? [.fail(.error(F.transport))] : discarded
        case .refreshBadIDTokenUnanswered: effects = refreshCounts ? [.fail(.error(F.badIDToken))] : discarded
        case .refreshRejected:
            effects =
                refreshCounts
                ? [.log(.refreshRejected(.invalidGrant))] + cleared(lockHeld: true) + [.fail(.error(F.rejection))]
                : discarded
        case .refreshBadIDToken:
            effects =
                refreshCounts
                ? [.log(.refreshedIDTokenInvalid)] + cleared(lockHeld: true) + [.fail(.error(F.badIDToken))] : discarded
        case .refreshReused: effects = refreshCounts ? [.lookForNewerStoredSession] : discarded
        case .refreshFailedStale, .reuseStale: effects = discarded
        case .reuseFoundNewer:
            effects = refreshCounts ? adopt(F.newer) + [.log(.adoptedAfterReuse), .deliver(F.newer)] : discarded
        case .reuseFoundNothing, .reuseFoundOtherUser:
            effects =
                refreshCounts
                ? [.log(.refreshRejected(.invalidGrant))] + cleared(lockHeld: true) + [.fail(.error(F.reuse))]
                : discarded

        case .flightEnded:
            after.flight = nil
            effects = []
        case .otherFlightEnded: effects = []

        // Proactive refresh.
        case .automaticStarted:
            after.automaticRefresh.running = F.policy
            effects = [.startAutomaticChecks(F.policy)]
        case .automaticStopped:
            after.automaticRefresh.running = nil
            effects = [.stopAutomaticChecks]
        case .tickInsideMargin:
            let due = before.automaticRefresh.running != nil && session?.refreshToken != nil
            effects = due ? [.refreshAutomatically] : []
        case .tickEarly: effects = []
        case .checkFinished:
            effects =
                before.automaticRefresh.running.map {
                    [.scheduleAutomaticCheck(at: F.fresh + $0.interval.timeInterval)]
                }
                ?? []
        }
        return (after, effects)
    }
}
