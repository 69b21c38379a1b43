import Foundation

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

    /// Sends one of the provider's requests through the ``RequestPipeline`` and checks the response.
    /// - Parameters:
    ///   - name: The request's name in ``ProviderSpec/requests``.
    ///   - flow: The flow's variables.
    ///   - accessToken: The access token for `.accessToken` requests (the valid one when `nil`).
    ///   - isTokenRequest: Whether the extra token parameters are added (and, with DPoP, a proof).
    ///   - proofKey: The DPoP key to prove possession of: a token request's (the sign-in's, the refreshed
    ///     session's), or that of the session whose `accessToken` is given (by default the current session's
    ///     when it is DPoP-bound); ignored unless the client uses DPoP. Without one, no proof is sent.
    /// - Returns: The request spec, the JSON body (if any) and the response.
    func send(
        _ name: String, flow: [String: JSON?] = [:], accessToken: String? = nil, isTokenRequest: Bool = false,
        proofKey: DPoPKey? = nil
    ) async throws(AuthError) -> (spec: RequestSpec, document: JSON?, response: TransportResponse) {
        guard let spec = provider.requests[name] else {
            throw failure(.invalidConfiguration, "The descriptor has no request named '\(name)'.")
        }
        var bearer = accessToken
        var key = proofKey
        if spec.authorization == .accessToken {
            if bearer == nil {
                bearer = try await validAccessToken()
                key = session.flatMap { $0.accessToken == bearer ? $0.boundProofKey : nil }
            } else {
                key = proofKey ?? session.flatMap { $0.accessToken == bearer ? $0.boundProofKey : nil }
            }
            guard bearer != nil else {
                throw failure(.sessionMissing, "This request needs a signed-in session.")
            }
        }
        let sessionTokens: [String: JSON?] = [
            "access_token": session.map { .string($0.accessToken) },
            "refresh_token": session?.refreshToken.map(JSON.string),
            "id_token": session?.idToken.map(JSON.string),
        ]
        let templates = provider.templates(of: spec, isTokenRequest: isTokenRequest)
        try checkCaptures(in: templates, request: name, flow: flow)
        let request = try builder.build(
            spec, scope: try await scope(flow, rendering: templates),
            isTokenRequest: isTokenRequest)
        var context = requestContext(proofKey: usesDPoP ? key : nil)
        if spec.authorization == .accessToken {
            context.accessToken = bearer
            context.authorizationScheme = context.proofKey == nil ? spec.authorizationScheme : "DPoP"
        }
        log(.debug, "\(request.method) \(request.url.host ?? "")\(request.url.path) (\(name))")
        let response: TransportResponse
        do {
            response = try await pipeline.send(request, context: context).response
        } catch {
            var failure = error
            failure.provider = failure.provider ?? provider.name
            throw failure.redacting(secretsSent(flow: flow.merging(sessionTokens) { own, _ in own }, bearer: bearer))
        }
        do {
            return (spec, try mapper.document(from: response, for: spec, named: name), response)
        } catch {
            // A provider may echo what it was sent (a code, a token, a password) in its error.
            let redacted = error.redacting(
                secretsSent(flow: flow.merging(sessionTokens) { own, _ in own }, bearer: bearer))
            await endSessionIfProviderEndedIt(redacted, spec: spec, bearer: bearer)
            throw redacted
        }
    }

    /// Forgets the session (publishing `signedOut`) when a request sent with the current session's access token
    /// is refused with one of the descriptor's `errors.sessionEndedCodes` (GoTrue's `session_not_found`): the
    /// server has already ended the session, so keeping it would only fail again. Any other refusal keeps it.
    /// The descriptor's `errors.sessionEndedEvents` names an event to publish afterwards (`user_deleted`).
    private func endSessionIfProviderEndedIt(_ error: AuthError, spec: RequestSpec, bearer: String?) async {
        guard spec.authorization == .accessToken, let bearer, let current = session,
            current.accessToken == bearer, let code = error.providerCode,
            provider.errors.sessionEndedCodes.contains(code)
        else { return }
        log(.info, "The provider says the session has ended (\(code)); it is forgotten.")
        await clearSession()
        if let event = provider.errors.sessionEndedEvents[code] { eventBroadcaster.publish(AuthEvent(event)) }
    }

    /// The pipeline context of this client's requests: with a DPoP key, its proofs take `iat` from the client's
    /// clock, `jti` from its random source and nonces from ``dpopNonces``.
    nonisolated func requestContext(proofKey: DPoPKey? = nil) -> RequestContext {
        var context = RequestContext(provider: provider.name)
        guard let proofKey else { return context }
        context.proofKey = proofKey
        context.nonces = dpopNonces
        let clock = options.clock
        let random = options.random
        context.now = { clock.now }
        context.makeIdentifier = { RandomToken.make(bytes: 16, using: random) }
        return context
    }

    /// A new DPoP key for a sign-in's token request (password, code, device code, client credentials), or `nil`
    /// when the client does not use DPoP: every new session gets a key of its own.
    nonisolated func newProofKey() throws(AuthError) -> DPoPKey? {
        usesDPoP ? try DPoPKey.generate() : nil
    }

    /// Every secret a request may carry: the flow's values (codes, verifiers, tokens, passwords), the bearer
    /// token, the session's tokens and the client secret.
    nonisolated func secretsSent(flow: [String: JSON?], bearer: String?) -> [String?] {
        var secrets: [String?] = flow.values.compactMap { value -> String? in
            if case .string(let text)? = value { return text }
            return nil
        }
        secrets += [bearer, configuration.clientSecret]
        return secrets
    }

    /// Decodes a token response into a session, correcting an absolute expiry by the response's `Date`, and binds
    /// it to the DPoP key its request proved possession of.
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
        session.dpopKey = session.isDPoPBound ? proofKey : nil
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
        let effects = apply(.installRequested(fence: fence))
        if let failure = effects.failure { throw error(for: failure) }
        guard case .commit(let expected, let takesRefreshLock)? = effects.first else {
            preconditionFailure("an install that is not refused commits")
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
            guard client.apply(.commitTurn(generation: expected)).first == .writeSession else { return .discarded }
            var failure: AuthError?
            do throws(AuthError) {
                let record = try StoredRecords.encode(new, identity: client.identity)
                try await client.saveRecord(record, key: client.storeKey)
                client.lastSessionRecord = (record, new)
            } catch {
                failure = error
                client.log(.info, "The session could not be stored: \(error.message)")
            }
            let effects = client.apply(.commitWritten(new, generation: expected, storeError: failure))
            guard effects.first != .dropLateResult else { return .discarded }
            return failure.map(CommitOutcome.installedNotStored) ?? .installed
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
        let effects = apply(.sessionCleared(lockHeld: lockHeld))
        return await removeStoredSession(takesRefreshLock: effects.removal ?? false)
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
