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

    /// Runs one refresh under the store's refresh lock (see ``SessionStore/withExclusiveRefresh(key:_:)``), so
    /// that processes sharing the store never send the same refresh token twice.
    private func refresh(
        _ current: Session, flow: RefreshFlowSpec, generation expected: Int, flightID: Int
    ) async -> Result<Session, AuthError> {
        defer { if refreshFlight?.id == flightID { refreshFlight = nil } }
        do {
            return try await options.store.withExclusiveRefresh(key: storeKey) {
                () async -> Result<Session, AuthError> in
                await self.refreshHoldingLock(current, flow: flow, generation: expected)
            }
        } catch {
            guard generation == expected else { return discarded() }
            log(.info, "The refresh did not start: \(error.message)")
            return .failure(error)
        }
    }

    /// The refresh proper, run while holding the refresh lock. Another process may have refreshed while this
    /// one waited, so the store is read again first: a newer session there is adopted (and only refreshed
    /// when it is itself expired); otherwise the refresh is sent and the result stored before the lock is
    /// released.
    private func refreshHoldingLock(
        _ current: Session, flow: RefreshFlowSpec, generation expected: Int
    ) async -> Result<Session, AuthError> {
        refreshesHoldingLock += 1
        defer { refreshesHoldingLock -= 1 }
        guard generation == expected else { return discarded() }
        var base = current
        switch await serialized({ client in await client.readStoredSession() }) {
        case .failure(let error):
            guard generation == expected else { return discarded() }
            return .failure(error)
        case .success(let stored?) where Self.isNewer(stored, than: current):
            guard generation == expected else { return discarded() }
            session = stored
            publishSettled()
            guard stored.isExpired(at: now(), leeway: options.refreshLeeway) else {
                log(.info, "Another process refreshed the session first; adopting the newer session from the store.")
                return .success(stored)
            }
            log(.info, "Another process stored a newer session, which is expired too; refreshing that one.")
            base = stored
        case .success:
            break
        }
        // A sign-out or user switch while the store was read: send nothing with the old refresh token.
        guard generation == expected else { return discarded() }
        var answered = false
        do {
            let (spec, document, response) = try await send(
                flow.request, flow: ["refresh_token": base.refreshToken.map(JSON.string)],
                accessToken: base.accessToken, isTokenRequest: true)
            var fresh = try decodeSession(document, response, request: spec)
            fresh.refreshToken = fresh.refreshToken ?? base.refreshToken
            fresh.idToken = fresh.idToken ?? base.idToken
            fresh.user = fresh.user ?? base.user
            answered = true
            try await validateRefreshedIDToken(fresh, previous: base)
            try await validateNewAccessToken(&fresh, previous: base)
            switch await commit(fresh, generation: expected) {
            case .installed: return .success(fresh)
            case .installedNotStored(let error): return .failure(error)
            case .discarded: return discarded()
            }
        } catch {
            // A provider may echo the refresh token in its error: never let it into a message or a log.
            let error = error.redacting([base.refreshToken, base.accessToken, base.idToken, current.refreshToken])
            guard generation == expected else { return discarded() }
            // The provider answered with an ID token that fails validation: it has most likely rotated the old
            // refresh token out already, and sending that one again would revoke the whole family. The session
            // is over (OpenID Connect Core §12.2).
            if answered, error.code == .invalidIDToken {
                log(.info, "The refreshed ID token failed validation; signing out.")
                await clearSession(lockHeld: true)
                return .failure(error)
            }
            guard error.kind == .rejected else { return .failure(error) }
            if flow.reuseCodes.contains(error.providerCode ?? ""), let newer = await newerStoredSession(than: base),
                generation == expected
            {
                log(.info, "The refresh token was already used; adopting the newer session from the store.")
                session = newer
                publishSettled()
                return .success(newer)
            }
            guard generation == expected else { return discarded() }
            log(.info, "The provider rejected the refresh (\(error.code.rawValue)); signing out.")
            await clearSession(lockHeld: true)
            return .failure(error)
        }
    }

    /// Whether a stored session replaces the one in memory: other tokens, issued no earlier. A stored session
    /// issued earlier is this client's own older record (its last write failed) and must not replace it.
    static func isNewer(_ stored: Session, than current: Session) -> Bool {
        guard stored.accessToken != current.accessToken || stored.refreshToken != current.refreshToken else {
            return false
        }
        return stored.issuedAt >= current.issuedAt
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

extension AuthError {
    /// The error with every secret (and any truncated echo of one's start) cut out of its message and provider
    /// code, for providers that echo what they were sent. Secrets shorter than 8 characters are left alone.
    /// - Parameter secrets: Tokens, codes or passwords the request carried.
    /// - Returns: The redacted error.
    func redacting(_ secrets: [String?]) -> AuthError {
        let secrets = secrets.compactMap { $0 }.filter { $0.count >= 8 }
        guard !secrets.isEmpty else { return self }
        var error = self
        error.message = AuthError.redact(error.message, secrets)
        error.providerCode = error.providerCode.map { AuthError.redact($0, secrets) }
        return error
    }

    /// Replaces every run of text that starts like a secret (its first 8 characters) and continues as it does.
    static func redact(_ text: String, _ secrets: [String]) -> String {
        var result = text
        for secret in secrets {
            let probe = secret.prefix(8)
            guard result.contains(probe) else { continue }
            var output = ""
            var rest = Substring(result)
            while let found = rest.range(of: probe) {
                output += rest[..<found.lowerBound]
                var end = found.upperBound
                var next = secret.index(secret.startIndex, offsetBy: probe.count)
                while end < rest.endIndex, next < secret.endIndex, rest[end] == secret[next] {
                    end = rest.index(after: end)
                    next = secret.index(after: next)
                }
                output += "<redacted>"
                rest = rest[end...]
            }
            result = output + rest
        }
        return result
    }
}
