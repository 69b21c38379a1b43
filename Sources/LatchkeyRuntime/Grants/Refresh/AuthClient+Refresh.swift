import Foundation
import LatchkeyTokens

/// One refresh in flight, shared by every caller.
struct RefreshFlight: Sendable {
    /// Identifies the flight.
    let id: Int
    /// The refresh's result, which every caller awaits.
    let outcome: SettledOnce<Result<Session, AuthError>>
}

extension AuthClient {
    /// The current session, refreshed first when it is expired or within the refresh leeway.
    ///
    /// Any number of concurrent callers share one refresh request. The rotated refresh token is stored
    /// before any caller sees the new access token. Processes sharing a store (an app and its extensions on
    /// one ``FileSessionStore``) refresh under the store's refresh lock and read the store again first: one
    /// that waited adopts the session the other stored instead of sending the same refresh token again.
    /// - Parameter forceRefresh: Refresh even when the access token is still fresh (a session that cannot be
    ///   refreshed is returned as it is).
    /// - Returns: The session.
    /// - Throws: `session_missing` when signed out; a rejection (`session_expired`, `invalid_grant`, ...)
    ///   after which the session is gone; `invalid_id_token` when the refreshed ID token fails validation,
    ///   after which the session is gone too (the provider has already replaced the old refresh token); a
    ///   transport error, after which the session is kept.
    public func currentSession(forceRefresh: Bool = false) async throws(AuthError) -> Session {
        // The fast path: a fresh session is the answer without a transition (see `freshSession(at:)`).
        if !forceRefresh, let fresh = lifecycle.freshSession(at: now()) { return fresh }
        try await ensureLoaded()
        return try await answer(apply(.sessionRequested(forceRefresh: forceRefresh, now: now()))).get()
    }

    /// Starts refresh flight `id` from `base` (the lifecycle just started it) and waits for its result.
    func startRefreshFlight(_ id: Int, base: Session, generation expected: Int) async -> Result<Session, AuthError> {
        // The lifecycle starts a flight only for a provider with a refresh flow (`Rules.canRefresh`).
        guard let flow = provider.flows.refresh else {
            apply(.refreshFlightEnded(id: id))
            return .failure(error(for: .expiredUnrefreshable))
        }
        let outcome = SettledOnce<Result<Session, AuthError>>()
        refreshTask = RefreshFlight(id: id, outcome: outcome)
        if refreshRunsInCallerTask {
            // Nothing in this flight can see this caller's cancellation (see `refreshRunsInCallerTask`).
            await TransportCancellationShield.$isActive.withValue(true) {
                await refresh(base, flow: flow, generation: expected, flightID: id, settling: outcome)
            }
        } else {
            // Its own task, so that no caller's cancellation reaches the refresh the others share; it does
            // its store work in itself (`uncancellableCallerTask`).
            startOwnTask { client in
                await client.refresh(base, flow: flow, generation: expected, flightID: id, settling: outcome)
            }
        }
        return await outcome.value()
    }

    /// A valid access token, refreshed first when needed.
    /// - Returns: The access token.
    /// - Throws: As ``currentSession(forceRefresh:)``.
    public func validAccessToken() async throws(AuthError) -> String {
        try await currentSession().accessToken
    }

    /// Runs one refresh under the store's refresh lock (see ``withRefreshLock(_:)``), so
    /// that processes sharing the store never send the same refresh token twice.
    private func refresh(
        _ current: Session, flow: RefreshFlowSpec, generation expected: Int, flightID: Int,
        settling outcome: SettledOnce<Result<Session, AuthError>>
    ) async {
        let result = await refreshUnderLock(current, flow: flow, generation: expected)
        apply(.refreshFlightEnded(id: flightID))
        if refreshTask?.id == flightID { refreshTask = nil }
        // Settled on this actor: the callers waiting here resume in turn, without a thread hand-off.
        outcome.settle(result)
    }

    /// The refresh under the store's refresh lock; a lock that cannot be taken fails the refresh.
    private func refreshUnderLock(
        _ current: Session, flow: RefreshFlowSpec, generation expected: Int
    ) async -> Result<Session, AuthError> {
        do {
            return try await withRefreshLock { client in
                await client.refreshHoldingLock(current, flow: flow, generation: expected)
            }
        } catch {
            return await answer(apply(.refreshLockFailed(error, generation: expected)))
        }
    }

    /// The refresh proper, run while holding the refresh lock. Another process may have refreshed while this
    /// one waited, so the store is read again first: a newer session there is adopted (and only refreshed
    /// when it is itself expired); otherwise the refresh is sent and the result stored before the lock is
    /// released.
    private func refreshHoldingLock(
        _ current: Session, flow: RefreshFlowSpec, generation expected: Int
    ) async -> Result<Session, AuthError> {
        let taken = apply(.refreshLockTaken(generation: expected))
        defer { apply(.refreshLockReleased) }
        guard taken.step == .rereadStore else { return await answer(taken) }
        let stored = await serialized(in: .uncancellableCallerTask) { client in await client.readStoredSession() }
        // A sign-out or user switch while the store was read: send nothing with the old refresh token.
        let read = apply(.refreshStoreRead(stored, base: current, generation: expected, now: now()))
        guard case .sendRefresh(let base)? = read.step else { return await answer(read) }
        let grant = RefreshGrant(flow: flow, base: base, redirectURI: configuration.redirectURI)
        var answered = false
        do {
            // The session's own key: a DPoP-bound refresh token is honoured only with a proof of it.
            var proofKey = usesDPoP ? base.dpopKey : nil
            if usesDPoP, proofKey == nil { proofKey = try newProofKey() }
            let (spec, document, response) = try await send(grant.request, proofKey: proofKey)
            var fresh = grant.session(from: try decodeSession(document, response, request: spec, proofKey: proofKey))
            answered = true
            try await validateRefreshedIDToken(fresh, previous: base)
            try await validateNewAccessToken(&fresh, previous: base)
            switch await commit(fresh, generation: expected, in: .uncancellableCallerTask) {
            case .installed: return .success(fresh)
            case .installedNotStored(let error): return .failure(error)
            case .discarded: return lateRefreshResult()
            }
        } catch {
            // Already redacted: `send` cuts every token the request carried (the refresh token, the bearer token, the
            // session's tokens) out of a transport's or a provider's error, and nothing after it quotes a token.
            let isReuse = grant.isReuse(error)
            let failed = apply(.refreshFailed(error, answered: answered, isReuse: isReuse, generation: expected))
            guard failed.step == .lookForNewerStoredSession else { return await answer(failed) }
            let stored = await serialized(in: .uncancellableCallerTask) { client in await client.readStoredSession() }
            let newer = try? stored.get()
            return await answer(apply(.reuseStoreRead(newer, base: base, rejection: error, generation: expected)))
        }
    }

    /// Whether a stored session replaces the one in memory (see ``SessionLifecycle/isNewer(_:than:)``).
    static func isNewer(_ stored: Session, than current: Session) -> Bool {
        SessionLifecycle.isNewer(stored, than: current)
    }
}
