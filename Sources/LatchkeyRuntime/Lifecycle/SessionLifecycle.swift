import Foundation
import LatchkeyPlatform
import LatchkeyTokens

/// A client's session lifecycle as a pure value: ``handle(_:)`` maps (state, event) to (new state, effects).
///
/// It does no I/O, owns no task, and never reads a clock: every instant arrives inside an event. ``AuthClient``
/// keeps the I/O (transport, store, locks, broadcasters, tasks), feeds the lifecycle an ``Event`` for each
/// thing that happened, and carries out the ``Effect``s it returns through their one interpretation,
/// ``Outcome``.
///
/// What it holds is what decides the session's fate:
/// - ``phase``: whether the store was read, and the session in memory;
/// - ``generation``: bumped by every sign-in and sign-out, so a result that started in an older generation
///   (a refresh or a sign-in overtaken by a sign-out or a user switch) is dropped, never stored or published;
/// - ``flight``: the one refresh in flight, which every caller joins;
/// - ``refreshesHoldingLock``: how many of this client's refreshes run under the store's refresh lock (no
///   other process can be refreshing then, so sign-in and sign-out need not wait for the lock);
/// - ``automaticRefresh``: whether proactive refresh runs, and whether the configured one was started.
///
/// Its properties are changed only by ``handle(_:)`` (its extensions live in other files of this folder, so they
/// cannot be `private(set)`); ``AuthClient`` reads them and never writes them.
struct SessionLifecycle: Sendable, Equatable {
    /// What the lifecycle needs to know about its client, fixed when the client is created.
    struct Rules: Sendable, Equatable {
        /// How long before its expiry an access token is refreshed.
        var refreshLeeway: LatchkeyDuration
        /// Whether the provider has a refresh flow at all.
        var canRefresh: Bool
        /// Proactive refresh to start once the session is known, if any.
        var automaticRefresh: AutomaticRefresh?
        /// Whether an ID token expiring within the leeway makes the session due for a refresh too (descriptors
        /// that validate ID tokens; Lokksmith's `runWithTokens` refreshes when either token is near expiry).
        var refreshesForIDToken = false

        /// Whether a session is due for a refresh at `now`: its access token (or, with
        /// ``refreshesForIDToken``, its renewable ID token) expires within the leeway.
        func isDue(_ session: Session, at now: Date) -> Bool {
            session.isExpired(at: now, leeway: refreshLeeway)
                || (refreshesForIDToken && session.isIDTokenExpiring(at: now, leeway: refreshLeeway))
        }
    }

    /// Whether the store was read, and the session in memory.
    enum Phase: Sendable, Equatable {
        /// The stored session has not been read (or reading it failed): the published state is `loading`
        /// or `failed(store_unavailable)`.
        case unloaded
        /// Nobody is signed in.
        case signedOut
        /// The session in memory.
        case signedIn(Session)
    }

    /// The refresh in flight.
    struct Flight: Sendable, Equatable {
        /// Identifies the flight (its task lives in ``AuthClient``).
        var id: Int
        /// The generation it started in: its result counts only while the generation is unchanged.
        var generation: Int
    }

    /// Proactive refresh's bookkeeping.
    struct AutomaticRefreshState: Sendable, Equatable {
        /// The policy running now, if any.
        var running: AutomaticRefresh?
        /// Whether ``Rules/automaticRefresh`` was started once already (a later stop is not undone).
        var configuredStarted = false
    }

    /// The rules.
    let rules: Rules
    /// Whether the store was read, and the session in memory.
    var phase: Phase = .unloaded
    /// Bumped by every sign-in and sign-out.
    var generation = 0
    /// The refresh in flight, if any.
    var flight: Flight?
    /// The last flight id handed out.
    var lastFlightID = 0
    /// How many of this client's refreshes hold the store's refresh lock right now.
    var refreshesHoldingLock = 0
    /// Proactive refresh's bookkeeping.
    var automaticRefresh = AutomaticRefreshState()

    /// A lifecycle before the store was read.
    /// - Parameter rules: The client's rules.
    init(rules: Rules) {
        self.rules = rules
    }

    /// The session in memory.
    var session: Session? {
        if case .signedIn(let session) = phase { return session }
        return nil
    }

    /// Whether the store was read (or a session was installed or cleared since).
    var isLoaded: Bool { phase != .unloaded }

    /// The session a request for it (not forced) would be answered with at once: signed in and not expiring
    /// within the refresh leeway at `now`. A read, not a transition: when it answers, `sessionRequested` with
    /// `forceRefresh: false` would change nothing and return exactly `[.deliver(session)]`, so the client's
    /// fast path (`validAccessToken()`) skips building that list. `nil` means: ask `sessionRequested`.
    /// - Parameter now: The current time.
    /// - Returns: The fresh session, or `nil`.
    func freshSession(at now: Date) -> Session? {
        guard case .signedIn(let current) = phase, !rules.isDue(current, at: now) else {
            return nil
        }
        return current
    }

    /// Applies an event and returns what the client must do, in order.
    /// - Parameter event: What happened.
    /// - Returns: The effects; an empty list when the event changes nothing (a late or illegal event).
    mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .restoreFinished(let stored): return restoreFinished(stored)
        case .restoreFailed(let error): return isLoaded ? [] : [.publishState(.failed(error)), .fail(.error(error))]
        case .signInStarted: return [.publishState(.authenticating)]
        case .signInFailed(let previous): return isLoaded ? settled() : [.publishState(previous)]
        case .installRequested(let fence): return installRequested(fence: fence)
        case .commitTurn(let expected): return expected == generation ? [.writeSession] : [.dropLateResult]
        case .commitWritten(let new, let expected, let storeError):
            return commitWritten(new, generation: expected, storeError: storeError)
        case .sessionCleared(let lockHeld): return clear(lockHeld: lockHeld)
        case .sessionRequested(let forceRefresh, let now): return sessionRequested(forceRefresh: forceRefresh, now: now)
        case .refreshLockFailed(let error, let expected):
            return isCurrentRefresh(expected) ? [.log(.refreshDidNotStart(error)), .fail(.error(error))] : discarded()
        case .refreshLockTaken(let expected):
            refreshesHoldingLock += 1
            return isCurrentRefresh(expected) ? [.rereadStore] : discarded()
        case .refreshLockReleased:
            refreshesHoldingLock = max(0, refreshesHoldingLock - 1)
            return []
        case .refreshStoreRead(let result, let base, let expected, let now):
            return refreshStoreRead(result, base: base, generation: expected, now: now)
        case .refreshFailed(let error, let answered, let isReuse, let expected):
            return refreshFailed(error, answered: answered, isReuse: isReuse, generation: expected)
        case .reuseStoreRead(let stored, let base, let rejection, let expected):
            return reuseStoreRead(stored, base: base, rejection: rejection, generation: expected)
        case .refreshFlightEnded(let id):
            if flight?.id == id { flight = nil }
            return []
        case .automaticRefreshStarted(let policy): return startAutomaticRefresh(policy)
        case .automaticRefreshStopped:
            automaticRefresh.running = nil
            return [.stopAutomaticChecks]
        case .clockTicked(let now): return clockTicked(now: now)
        case .automaticCheckFinished(let now):
            guard let policy = automaticRefresh.running else { return [] }
            return [.scheduleAutomaticCheck(at: now.addingTimeInterval(policy.interval.timeInterval))]
        }
    }

    // MARK: - Restore, install, clear

    private mutating func restoreFinished(_ stored: Session?) -> [Effect] {
        guard !isLoaded else { return [] }
        phase = stored.map(Phase.signedIn) ?? .signedOut
        return settled() + startConfiguredAutomaticRefresh()
    }

    private mutating func installRequested(fence: Int?) -> [Effect] {
        if let fence, fence != generation { return [.log(.lateSignInDropped), .fail(.lateSignIn)] }
        generation += 1
        flight = nil
        return [.commit(generation: generation, takesRefreshLock: refreshesHoldingLock == 0)]
    }

    private mutating func commitWritten(_ new: Session, generation expected: Int, storeError: AuthError?) -> [Effect] {
        guard expected == generation else { return [.dropLateResult] }
        phase = .signedIn(new)
        return settled() + startConfiguredAutomaticRefresh() + (storeError.map { [.reportStoreFailure($0)] } ?? [])
    }

    /// Forgets the session: a new generation (late results are dropped), `signedOut` published, the record removed.
    mutating func clear(lockHeld: Bool) -> [Effect] {
        generation += 1
        flight = nil
        phase = .signedOut
        return [
            .publishState(.signedOut), .publishTokens(nil),
            .removeStoredSession(takesRefreshLock: !(lockHeld || refreshesHoldingLock > 0)),
        ]
    }

    /// Publishes `signedIn` or `signedOut`, and the tokens, from the session in memory.
    func settled() -> [Effect] {
        [.publishState(session.map { .signedIn($0.userOrPlaceholder) } ?? .signedOut), .publishTokens(session)]
    }

    /// Whether a refresh fenced by `expected` still counts: no sign-in or sign-out since, and a session to refresh.
    func isCurrentRefresh(_ expected: Int) -> Bool { expected == generation && session != nil }

    /// What a result that arrives after a sign-out or a user switch turns into: the session in memory, if any.
    func discarded() -> [Effect] {
        [.dropLateResult, session.map(Effect.deliver) ?? .fail(.endedWhileRefreshing)]
    }
}
