import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

extension AuthClient {
    /// The variables for a request: inputs, discovered metadata, derived variables, the session's tokens,
    /// then the flow's own variables.
    func scope(_ flow: [String: JSON?] = [:]) async throws(AuthError) -> VariableScope {
        let discovered = provider.discovery == nil ? [:] : try await discover()
        var base = VariableScope(inputs: inputs, discovered: discovered, derived: provider.variables)
        if let session {
            base = base.adding(text: session.captures)
            base = base.adding(text: [
                "access_token": session.accessToken, "refresh_token": session.refreshToken,
                "id_token": session.idToken,
            ])
        }
        return base.adding(flow)
    }

    /// Decodes a token response into a session, correcting an absolute expiry by the response's `Date`, and keeps
    /// the DPoP key its request proved possession of (the access token's binding when `DPoP`, the refresh
    /// token's in any case).
    /// - Parameters:
    ///   - request: The request that was answered: its own session mapping, when it declares one, replaces the
    ///     provider's.
    ///   - proofKey: The DPoP key of the request's proof, if it carried one.
    /// - Throws: `dpop_binding_mismatch` for a `DPoP` token type without a proof, or a `Bearer` one when the
    ///   descriptor requires DPoP.
    func decodeSession(
        _ document: JSON?, _ response: TransportResponse, request: RequestSpec? = nil, proofKey: DPoPKey? = nil
    ) throws(AuthError) -> Session {
        guard let document else {
            throw failure(.invalidResponse, "The token response is empty.")
        }
        let serverDate = response.header("Date").flatMap(HTTPDate.parse)
        var session = try decoder.mapping(request?.session).session(
            from: document, now: now(), serverDate: serverDate)
        let proofKey = usesDPoP ? proofKey : nil
        if session.isDPoPBound, proofKey == nil {
            throw failure(.dpopBindingMismatch, "The provider issued a DPoP-bound token to a request without a proof.")
        }
        if proofKey != nil, !session.isDPoPBound, provider.senderConstraint.dpop == .required {
            throw failure(
                .dpopBindingMismatch,
                "The provider issued a '\(session.tokenType)' token, but this provider's tokens must be DPoP-bound.")
        }
        // The request's key stays with the session even when the access token came back `Bearer`: a public
        // client's refresh token is bound to it all the same (RFC 9449 §5; Google binds refresh tokens only), so
        // refreshes prove it; resource requests prove a key only for a `DPoP` access token (`boundProofKey`).
        session.dpopKey = proofKey
        // Captures without a request read every token response.
        for capture in provider.captures where capture.request == nil {
            session.captures[capture.name] = capture.value(in: document, response)
        }
        return session
    }

    /// Makes a session current: bumps the generation (so late refresh results are discarded), writes it
    /// to the store, then publishes it.
    /// - Parameters:
    ///   - new: The new session.
    ///   - fence: The generation the sign-in started in (see ``signInFence()``), or `nil` for none: when the
    ///     session was signed out or replaced since, the new session is discarded, never stored.
    /// - Throws: `store_failed` when the write failed (the session is still kept in memory);
    ///   `login_cancelled` when the fence moved (a sign-out while the sign-in was completing).
    @discardableResult
    func install(_ new: Session, fence: Int? = nil) async throws(AuthError) -> Session {
        let new = try await capturing(new)
        let requested = apply(.installRequested(fence: fence))
        // Refused (a sign-out or another sign-in since the fence): the answer is the failure.
        guard case .commit(let expected, let takesRefreshLock)? = requested.step else {
            return try await answer(requested).get()
        }
        let outcome: CommitOutcome
        if !takesRefreshLock {
            // This client's own refresh holds the lock (its result will be discarded): no other process can be
            // refreshing, and waiting for the lock would mean waiting for that refresh's network round trip.
            outcome = await commit(new, generation: expected)
        } else {
            do {
                // Under the refresh lock: another process's refresh of the previous session must not overwrite it.
                outcome = try await withRefreshLock { client in await client.commit(new, generation: expected) }
            } catch {
                log(
                    .info, "The refresh lock could not be taken (\(error.message)); storing the new session without it."
                )
                outcome = await commit(new, generation: expected)
            }
        }
        switch outcome {
        case .installed: return new
        case .installedNotStored(let error): throw error
        case .discarded: throw failure(.sessionMissing, "The session changed while signing in.")
        }
    }

    /// Writes a session to the store and then into memory, unless the generation moved on meanwhile.
    func commit(
        _ new: Session, generation expected: Int, in task: StoreOperationTask = .ownTask
    ) async -> CommitOutcome {
        await serialized(in: task) { client in
            guard client.apply(.commitTurn(generation: expected)).step == .writeSession else { return .discarded }
            var failure: AuthError?
            do throws(AuthError) {
                let record = try StoredRecords.encode(new, identity: client.identity)
                try await client.saveRecord(record, key: client.storeKey)
                client.lastSessionRecord = (record, new)
            } catch {
                failure = error
                client.log(.info, "The session could not be stored: \(error.message)")
            }
            let written = client.apply(.commitWritten(new, generation: expected, storeError: failure))
            guard !written.droppedLateResult else { return .discarded }
            return written.storeFailure.map(CommitOutcome.installedNotStored) ?? .installed
        }
    }

    /// Forgets the session: bumps the generation, clears memory and the store, publishes `signedOut`.
    ///
    /// The record is removed under the store's refresh lock, so that another process's refresh in flight cannot
    /// store the old session again afterwards.
    /// - Parameter lockHeld: Whether the caller already holds the refresh lock (a refresh that was rejected).
    /// - Returns: The store's error, if removing the record failed.
    @discardableResult
    func clearSession(lockHeld: Bool = false) async -> AuthError? {
        await removeStoredSession(for: apply(.sessionCleared(lockHeld: lockHeld)))
    }
}

extension AuthClient {
    /// The generation a sign-in starts in: pass it to ``install(_:fence:)`` so that a ``signOut(scope:)``
    /// (or another sign-in) while its requests are on the wire wins, as it does over a refresh.
    func signInFence() -> Int { generation }
}

/// What became of a session handed to ``AuthClient/commit(_:generation:)``.
enum CommitOutcome: Sendable {
    /// Stored and current.
    case installed
    /// Current, but the store write failed.
    case installedNotStored(AuthError)
    /// Dropped: a sign-out or user switch happened first.
    case discarded
}
