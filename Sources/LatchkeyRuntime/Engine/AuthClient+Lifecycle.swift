extension AuthClient {
    /// Hands an event to the ``SessionLifecycle`` and carries out the effects that need no waiting (publishing
    /// states and tokens, starting and stopping the automatic refresh checks, logging); returns every effect,
    /// so the caller carries out the rest (store writes and removals, refreshes, its answer).
    @discardableResult
    func apply(_ event: SessionLifecycle.Event) -> [SessionLifecycle.Effect] {
        let effects = lifecycle.handle(event)
        for effect in effects {
            switch effect {
            case .publishState(let state): broadcaster.publish(state)
            case .publishTokens(let session):
                tokenBroadcaster.publish(session)
                changeBroadcaster.tokens(session)
            case .startAutomaticChecks(let policy): runAutomaticChecks(policy)
            case .stopAutomaticChecks:
                automaticRefreshTask?.cancel()
                automaticRefreshTask = nil
            case .log(let note): log(.info, message(for: note))
            default: continue
            }
        }
        return effects
    }

    /// The error a lifecycle failure throws.
    nonisolated func error(for failure: SessionLifecycle.Failure) -> AuthError {
        switch failure {
        case .error(let error): error
        case .nobodySignedIn: self.failure(.sessionMissing, "Nobody is signed in.")
        case .expiredUnrefreshable: self.failure(.sessionExpired, "The session expired and cannot be refreshed.")
        case .lateSignIn:
            self.failure(
                .loginCancelled, "The sign-in was cancelled by a sign-out (or another sign-in) while it completed.")
        case .endedWhileRefreshing: self.failure(.sessionMissing, "The session ended while refreshing.")
        }
    }

    /// Removes the stored session, under the store's refresh lock when asked, so that another process's refresh
    /// in flight cannot store the old session again afterwards.
    /// - Returns: The store's error, if removing the record failed.
    func removeStoredSession(takesRefreshLock: Bool) async -> AuthError? {
        let remove: @Sendable () async -> AuthError? = {
            await self.serialized { client -> AuthError? in
                client.lastSessionRecord = nil  // no copy of an ended session's tokens stays behind
                do throws(AuthError) {
                    try await client.removeRecord(key: client.storeKey)
                    return nil
                } catch {
                    client.log(.info, "The stored session could not be removed: \(error.message)")
                    return error
                }
            }
        }
        // This client's own refresh holds the lock: no other process can be refreshing (see `install`).
        guard takesRefreshLock else { return await remove() }
        do {
            return try await withRefreshLock { _ in await remove() }
        } catch {
            log(.info, "The refresh lock could not be taken (\(error.message)); removing the session without it.")
            return await remove()
        }
    }

    /// Carries out the effects that end a refresh or a request for the session: the store removal of a session
    /// that ended, then the answer.
    func finish(_ effects: [SessionLifecycle.Effect]) async -> Result<Session, AuthError> {
        if let takesRefreshLock = effects.removal { _ = await removeStoredSession(takesRefreshLock: takesRefreshLock) }
        for effect in effects {
            switch effect {
            case .dropLateResult:
                log(.info, "A refresh result arrived after a sign-out or user switch and was discarded.")
            case .deliver(let session): return .success(session)
            case .fail(let failure): return .failure(error(for: failure))
            default: continue
            }
        }
        return lateRefreshResult()
    }

    /// What a refresh whose commit was dropped (a sign-out or user switch came first) answers.
    func lateRefreshResult() -> Result<Session, AuthError> {
        log(.info, "A refresh result arrived after a sign-out or user switch and was discarded.")
        if let session { return .success(session) }
        return .failure(error(for: .endedWhileRefreshing))
    }

    private nonisolated func message(for note: SessionLifecycle.Note) -> String {
        switch note {
        case .unrefreshableKept: "The session cannot be refreshed (no refresh flow or token); kept as is."
        case .lateSignInDropped: "A sign-in completed after a sign-out or another sign-in; its session was discarded."
        case .refreshDidNotStart(let error): "The refresh did not start: \(error.message)"
        case .adoptedNewerSession:
            "Another process refreshed the session first; adopting the newer session from the store."
        case .adoptedExpiredSession:
            "Another process stored a newer session, which is expired too; refreshing that one."
        case .adoptedAfterReuse: "The refresh token was already used; adopting the newer session from the store."
        case .refreshedIDTokenInvalid: "The refreshed ID token failed validation; signing out."
        case .refreshRejected(let code): "The provider rejected the refresh (\(code.rawValue)); signing out."
        }
    }
}

extension [SessionLifecycle.Effect] {
    /// The failure among the effects, if any.
    var failure: SessionLifecycle.Failure? {
        for case .fail(let failure) in self { return failure }
        return nil
    }

    /// Whether the stored session is to be removed, and whether under the refresh lock; `nil` when not.
    var removal: Bool? {
        for case .removeStoredSession(let takesRefreshLock) in self { return takesRefreshLock }
        return nil
    }
}
