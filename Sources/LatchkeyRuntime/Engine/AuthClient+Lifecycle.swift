import LatchkeyTokens

extension AuthClient {
    /// Hands an event to the ``SessionLifecycle``, makes the outcome's announcements at once (publishing states
    /// and tokens, starting and stopping the automatic refresh checks, logging), and returns the outcome: its
    /// store removal and answer are carried out by ``answer(_:)`` (or ``removeStoredSession(for:)``), its next
    /// step by the flow that fed the event.
    @discardableResult
    func apply(_ event: SessionLifecycle.Event) -> SessionLifecycle.Outcome {
        let outcome = SessionLifecycle.Outcome(lifecycle.handle(event))
        for announcement in outcome.announcements {
            switch announcement {
            case .state(let state): broadcaster.publish(state)
            case .tokens(let session):
                tokenBroadcaster.publish(session)
                changeBroadcaster.tokens(session)
            case .startAutomaticChecks(let policy): runAutomaticChecks(policy)
            case .stopAutomaticChecks:
                automaticRefreshTask?.cancel()
                automaticRefreshTask = nil
            case .note(let note): log(.info, message(for: note))
            case .droppedLateResult:
                log(.info, "A result arrived after a sign-out or user switch and was discarded.")
            }
        }
        return outcome
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

    /// Carries out an outcome's store removal, if it has one.
    /// - Returns: The store's error, if removing the record failed.
    @discardableResult
    func removeStoredSession(for outcome: SessionLifecycle.Outcome) async -> AuthError? {
        guard let takesRefreshLock = outcome.removalTakesRefreshLock else { return nil }
        return await removeStoredSession(takesRefreshLock: takesRefreshLock)
    }

    /// Carries out an outcome's store removal, then its answer for the caller waiting on the session: the
    /// session, the failure, or the refresh flight to join or start and wait for. An outcome without an answer
    /// (a refresh whose result came too late) answers with the session in memory.
    /// - Parameter outcome: What ``apply(_:)`` returned.
    /// - Returns: The session, or why there is none.
    func answer(_ outcome: SessionLifecycle.Outcome) async -> Result<Session, AuthError> {
        await removeStoredSession(for: outcome)
        switch outcome.answer {
        case .deliver(let session)?:
            return .success(session)
        case .fail(let failure)?:
            return .failure(error(for: failure))
        case .joinRefresh(let flightID)?:
            // The flight's task is made on this actor as the lifecycle starts the flight, and dropped as it ends.
            guard let flight = refreshTask, flight.id == flightID else { return lateRefreshResult() }
            return await flight.outcome.value()
        case .startRefresh(let flightID, let base, let generation)?:
            return await startRefreshFlight(flightID, base: base, generation: generation)
        case nil:
            return lateRefreshResult()
        }
    }

    /// What a refresh whose result was dropped (a sign-out or user switch came first) answers.
    func lateRefreshResult() -> Result<Session, AuthError> {
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
