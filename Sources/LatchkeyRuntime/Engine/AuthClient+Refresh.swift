import Foundation

/// One refresh in flight, shared by every caller.
struct RefreshFlight: Sendable {
    /// Identifies the flight.
    let id: Int
    /// The refresh.
    let task: Task<Result<Session, AuthError>, Never>
}

extension AuthClient {
    /// The current session, refreshed first when it is expired or within the refresh leeway.
    ///
    /// Any number of concurrent callers share one refresh request. The rotated refresh token is stored
    /// before any caller sees the new access token.
    /// - Parameter forceRefresh: Refresh even when the access token is still fresh (a session that cannot be
    ///   refreshed is returned as it is).
    /// - Returns: The session.
    /// - Throws: `session_missing` when signed out; a rejection (`session_expired`, `invalid_grant`, ...)
    ///   after which the session is gone; a transport error, after which the session is kept.
    public func currentSession(forceRefresh: Bool = false) async throws(AuthError) -> Session {
        try await ensureLoaded()
        guard let current = session else {
            throw failure(.sessionMissing, "Nobody is signed in.")
        }
        if !forceRefresh, !current.isExpired(at: now(), leeway: options.refreshLeeway) { return current }
        if let flight = refreshFlight { return try await flight.task.value.get() }
        guard let flow = provider.flows.refresh, current.refreshToken != nil else {
            guard current.isExpired(at: now()) else {
                if forceRefresh {
                    log(.info, "The session cannot be refreshed (no refresh flow or token); kept as is.")
                }
                return current
            }
            await clearSession()
            throw failure(.sessionExpired, "The session expired and cannot be refreshed.")
        }
        nextFlightID += 1
        let id = nextFlightID
        let expected = generation
        let task = Task { await self.refresh(current, flow: flow, generation: expected, flightID: id) }
        refreshFlight = RefreshFlight(id: id, task: task)
        return try await task.value.get()
    }

    /// A valid access token, refreshed first when needed.
    /// - Returns: The access token.
    /// - Throws: As ``currentSession(forceRefresh:)``.
    public func validAccessToken() async throws(AuthError) -> String {
        try await currentSession().accessToken
    }

    private func refresh(
        _ current: Session, flow: RefreshFlowSpec, generation expected: Int, flightID: Int
    ) async -> Result<Session, AuthError> {
        defer { if refreshFlight?.id == flightID { refreshFlight = nil } }
        do {
            let (_, document, response) = try await send(
                flow.request, flow: ["refresh_token": current.refreshToken.map(JSON.string)],
                accessToken: current.accessToken, isTokenRequest: true)
            var fresh = try decodeSession(document, response)
            fresh.refreshToken = fresh.refreshToken ?? current.refreshToken
            fresh.idToken = fresh.idToken ?? current.idToken
            fresh.user = fresh.user ?? current.user
            try await validateRefreshedIDToken(fresh, previous: current)
            try await validateNewAccessToken(fresh, previous: current)
            switch await commit(fresh, generation: expected) {
            case .installed: return .success(fresh)
            case .installedNotStored(let error): return .failure(error)
            case .discarded: return discarded()
            }
        } catch {
            guard generation == expected else { return discarded() }
            guard error.kind == .rejected else { return .failure(error) }
            if flow.reuseCodes.contains(error.providerCode ?? ""), let newer = await newerStoredSession(than: current),
                generation == expected
            {
                log(.info, "The refresh token was already used; adopting the newer session from the store.")
                session = newer
                publishSettled()
                return .success(newer)
            }
            guard generation == expected else { return discarded() }
            log(.info, "The provider rejected the refresh (\(error.code.rawValue)); signing out.")
            await clearSession()
            return .failure(error)
        }
    }

    private func discarded() -> Result<Session, AuthError> {
        log(.info, "A refresh result arrived after a sign-out or user switch and was discarded.")
        if let session { return .success(session) }
        return .failure(failure(.sessionMissing, "The session ended while refreshing."))
    }

    /// A session in the store for the same user but with other tokens (another process refreshed first).
    private func newerStoredSession(than current: Session) async -> Session? {
        guard case .success(let stored?) = await serialized({ client in await client.readStoredSession() }) else {
            return nil
        }
        guard stored.refreshToken != current.refreshToken || stored.accessToken != current.accessToken,
            stored.subject == current.subject
        else { return nil }
        return stored
    }
}
