import Foundation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// The states and events of the transition-table tests: every state is reached from a fresh lifecycle by events
/// (so none is impossible), every event is a value of the state it is applied to (its generation fences are the
/// state's own, or one behind: a late result).
enum LifecycleFixtures {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    /// Ten seconds after sign-in: the token is fresh.
    static let fresh = start.addingTimeInterval(10)
    /// Thirty seconds before expiry: inside the 60 s leeway and the 90 s automatic margin.
    static let expiring = start.addingTimeInterval(3600 - 30)
    /// After expiry.
    static let past = start.addingTimeInterval(4000)

    static let policy = AutomaticRefresh(interval: .seconds(30), margin: .seconds(90))

    static func session(_ number: Int, refreshable: Bool = true, issuedAt: Date = start, user: String = "user-1")
        -> Session
    {
        Session(
            accessToken: "at-\(number)", refreshToken: refreshable ? "rt-\(number)" : nil,
            expiresAt: issuedAt.addingTimeInterval(3600), issuedAt: issuedAt, user: User(id: user), provider: "acme")
    }

    /// The session every signed-in fixture holds.
    static let current = session(1)
    /// Another process's newer session.
    static let newer = session(2, issuedAt: start.addingTimeInterval(5))
    /// Another process's newer session that is expired at ``past`` too.
    static let newerExpired = session(3, issuedAt: start.addingTimeInterval(-3000))
    /// A session a sign-in or refresh installs.
    static let installed = session(4, issuedAt: start.addingTimeInterval(20))

    static let rejection = AuthError(.invalidGrant, "revoked", providerCode: "invalid_grant", status: 400)
    static let reuse = AuthError(
        .invalidGrant, "already used", providerCode: "refresh_token_already_used", status: 400)
    static let transport = AuthError(.networkError, "offline")
    static let badIDToken = AuthError(.invalidIDToken, "bad signature")
    static let storeDown = AuthError(.storeUnavailable, "locked")
    static let diskFull = AuthError(.storeFailed, "disk full")

    static let rules = SessionLifecycle.Rules(refreshLeeway: .seconds(60), canRefresh: true, automaticRefresh: nil)
}

/// A reachable state of the lifecycle.
enum LifecycleState: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case unloaded
    case signedOut
    case signedIn
    case signedInUnrefreshable
    case refreshing
    case refreshingUnderLock
    case signedOutWhileRefreshHoldsLock
    case refreshingAutomatically

    var testDescription: String { rawValue }

    /// The lifecycle in this state, and the events that led there.
    var lifecycle: SessionLifecycle {
        typealias F = LifecycleFixtures
        var rules = F.rules
        var events: [SessionLifecycle.Event] = []
        switch self {
        case .unloaded: break
        case .signedOut: events = [.restoreFinished(nil)]
        case .signedIn: events = [.restoreFinished(F.current)]
        case .signedInUnrefreshable: events = [.restoreFinished(F.session(1, refreshable: false))]
        case .refreshing: events = [.restoreFinished(F.current), .sessionRequested(forceRefresh: true, now: F.fresh)]
        case .refreshingUnderLock, .signedOutWhileRefreshHoldsLock:
            events = [
                .restoreFinished(F.current), .sessionRequested(forceRefresh: true, now: F.fresh),
                .refreshLockTaken(generation: 0),
            ]
            if self == .signedOutWhileRefreshHoldsLock { events.append(.sessionCleared(lockHeld: false)) }
        case .refreshingAutomatically:
            rules.automaticRefresh = F.policy
            events = [.restoreFinished(F.current)]
        }
        var lifecycle = SessionLifecycle(rules: rules)
        for event in events { _ = lifecycle.handle(event) }
        return lifecycle
    }
}

/// Every kind of event, as a value of the state it is applied to.
enum LifecycleStimulus: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case restoreFoundSession, restoreFoundNothing, restoreFailed
    case signInStarted, signInFailed
    case installUnfenced, installFencedCurrent, installFencedStale
    case commitTurnCurrent, commitTurnStale
    case commitWrittenCurrent, commitWrittenNotStored, commitWrittenStale
    case signOut, clearedUnderLock
    case askedFresh, askedExpiring, askedForced, askedExpired
    case lockFailedCurrent, lockFailedStale, lockTakenCurrent, lockTakenStale, lockReleased
    case storeReadNothingNew, storeReadNewer, storeReadNewerExpired, storeReadFailed, storeReadStale
    case refreshTransportFailure, refreshRejected, refreshReused, refreshBadIDToken, refreshBadIDTokenUnanswered
    case refreshFailedStale
    case reuseFoundNewer, reuseFoundNothing, reuseFoundOtherUser, reuseStale
    case flightEnded, otherFlightEnded
    case automaticStarted, automaticStopped
    case tickInsideMargin, tickEarly, checkFinished

    var testDescription: String { rawValue }

    /// The event, fenced by the state's own generation or one behind it.
    func event(for lifecycle: SessionLifecycle) -> SessionLifecycle.Event {
        typealias F = LifecycleFixtures
        let current = lifecycle.generation
        let stale = lifecycle.generation - 1
        let base = lifecycle.session ?? F.current
        switch self {
        case .restoreFoundSession: return .restoreFinished(F.newer)
        case .restoreFoundNothing: return .restoreFinished(nil)
        case .restoreFailed: return .restoreFailed(F.storeDown)
        case .signInStarted: return .signInStarted
        case .signInFailed: return .signInFailed(previous: .loading)
        case .installUnfenced: return .installRequested(fence: nil)
        case .installFencedCurrent: return .installRequested(fence: current)
        case .installFencedStale: return .installRequested(fence: stale)
        case .commitTurnCurrent: return .commitTurn(generation: current)
        case .commitTurnStale: return .commitTurn(generation: stale)
        case .commitWrittenCurrent: return .commitWritten(F.installed, generation: current, storeError: nil)
        case .commitWrittenNotStored: return .commitWritten(F.installed, generation: current, storeError: F.diskFull)
        case .commitWrittenStale: return .commitWritten(F.installed, generation: stale, storeError: nil)
        case .signOut: return .sessionCleared(lockHeld: false)
        case .clearedUnderLock: return .sessionCleared(lockHeld: true)
        case .askedFresh: return .sessionRequested(forceRefresh: false, now: F.fresh)
        case .askedExpiring: return .sessionRequested(forceRefresh: false, now: F.expiring)
        case .askedForced: return .sessionRequested(forceRefresh: true, now: F.fresh)
        case .askedExpired: return .sessionRequested(forceRefresh: false, now: F.past)
        case .lockFailedCurrent: return .refreshLockFailed(F.storeDown, generation: current)
        case .lockFailedStale: return .refreshLockFailed(F.storeDown, generation: stale)
        case .lockTakenCurrent: return .refreshLockTaken(generation: current)
        case .lockTakenStale: return .refreshLockTaken(generation: stale)
        case .lockReleased: return .refreshLockReleased
        case .storeReadNothingNew:
            return .refreshStoreRead(.success(base), base: base, generation: current, now: F.fresh)
        case .storeReadNewer:
            return .refreshStoreRead(.success(F.newer), base: base, generation: current, now: F.fresh)
        case .storeReadNewerExpired:
            return .refreshStoreRead(.success(F.newer), base: base, generation: current, now: F.past)
        case .storeReadFailed:
            return .refreshStoreRead(.failure(F.storeDown), base: base, generation: current, now: F.fresh)
        case .storeReadStale:
            return .refreshStoreRead(.success(F.newer), base: base, generation: stale, now: F.fresh)
        case .refreshTransportFailure:
            return .refreshFailed(F.transport, answered: false, isReuse: false, generation: current)
        case .refreshRejected:
            return .refreshFailed(F.rejection, answered: false, isReuse: false, generation: current)
        case .refreshReused: return .refreshFailed(F.reuse, answered: false, isReuse: true, generation: current)
        case .refreshBadIDToken:
            return .refreshFailed(F.badIDToken, answered: true, isReuse: false, generation: current)
        case .refreshBadIDTokenUnanswered:
            return .refreshFailed(F.badIDToken, answered: false, isReuse: false, generation: current)
        case .refreshFailedStale:
            return .refreshFailed(F.rejection, answered: false, isReuse: false, generation: stale)
        case .reuseFoundNewer: return .reuseStoreRead(F.newer, base: base, rejection: F.reuse, generation: current)
        case .reuseFoundNothing: return .reuseStoreRead(nil, base: base, rejection: F.reuse, generation: current)
        case .reuseFoundOtherUser:
            return .reuseStoreRead(
                F.session(5, user: "user-2"), base: base, rejection: F.reuse, generation: current)
        case .reuseStale: return .reuseStoreRead(F.newer, base: base, rejection: F.reuse, generation: stale)
        case .flightEnded: return .refreshFlightEnded(id: lifecycle.flight?.id ?? lifecycle.lastFlightID)
        case .otherFlightEnded: return .refreshFlightEnded(id: 99)
        case .automaticStarted: return .automaticRefreshStarted(F.policy)
        case .automaticStopped: return .automaticRefreshStopped
        case .tickInsideMargin: return .clockTicked(now: F.expiring)
        case .tickEarly: return .clockTicked(now: F.fresh)
        case .checkFinished: return .automaticCheckFinished(now: F.fresh)
        }
    }
}
