import Foundation

extension AuthClient {
    /// The variables for a request: inputs, discovered metadata, derived variables, the session's tokens,
    /// then the flow's own variables.
    func scope(_ flow: [String: JSON?] = [:]) async throws(AuthError) -> VariableScope {
        let discovered = provider.discovery == nil ? [:] : try await discover()
        var base = VariableScope(inputs: inputs, discovered: discovered, derived: provider.variables)
        if let session {
            base = base.adding(text: [
                "access_token": session.accessToken, "refresh_token": session.refreshToken,
                "id_token": session.idToken,
            ])
        }
        return base.adding(flow)
    }

    /// Sends one of the provider's requests and checks the response.
    /// - Parameters:
    ///   - name: The request's name in ``ProviderSpec/requests``.
    ///   - flow: The flow's variables.
    ///   - accessToken: The bearer token for `.accessToken` requests (the valid one when `nil`).
    ///   - isTokenRequest: Whether the extra token parameters are added.
    /// - Returns: The request spec, the JSON body (if any) and the response.
    func send(
        _ name: String, flow: [String: JSON?] = [:], accessToken: String? = nil, isTokenRequest: Bool = false
    ) async throws(AuthError) -> (spec: RequestSpec, document: JSON?, response: HTTPResponse) {
        guard let spec = provider.requests[name] else {
            throw failure(.invalidConfiguration, "The descriptor has no request named '\(name)'.")
        }
        var bearer = accessToken
        if spec.authorization == .accessToken, bearer == nil { bearer = try await validAccessToken() }
        let request = try builder.build(
            spec, scope: try await scope(flow), accessToken: bearer, isTokenRequest: isTokenRequest)
        log(.debug, "\(request.method) \(request.url.host ?? "")\(request.url.path) (\(name))")
        let response: HTTPResponse
        do {
            response = try await options.transport.send(request)
        } catch {
            var failure = error
            failure.provider = failure.provider ?? provider.name
            throw failure
        }
        let document = try mapper.document(from: response, for: spec)
        return (spec, document, response)
    }

    /// Decodes a token response into a session, correcting an absolute expiry by the response's `Date`.
    func decodeSession(_ document: JSON?, _ response: HTTPResponse) throws(AuthError) -> Session {
        guard let document else {
            throw failure(.invalidResponse, "The token response is empty.")
        }
        let serverDate = response.header("Date").flatMap(HTTPDate.parse)
        return try decoder.session(from: document, now: now(), serverDate: serverDate)
    }

    /// Makes a session current: bumps the generation (so late refresh results are discarded), writes it
    /// to the store, then publishes it.
    /// - Throws: `store_failed` when the write failed; the session is still kept in memory.
    @discardableResult
    func install(_ new: Session) async throws(AuthError) -> Session {
        generation += 1
        refreshFlight = nil
        switch await commit(new, generation: generation) {
        case .installed: return new
        case .installedNotStored(let error): throw error
        case .discarded: throw failure(.sessionMissing, "The session changed while signing in.")
        }
    }

    /// Writes a session to the store and then into memory, unless the generation moved on meanwhile.
    func commit(_ new: Session, generation expected: Int) async -> CommitOutcome {
        await serialized { client in
            guard client.generation == expected else { return .discarded }
            var failure: AuthError?
            do throws(AuthError) {
                try await client.options.store.save(StoredRecords.encode(new), key: client.storeKey)
            } catch {
                failure = error
                client.log(.info, "The session could not be stored: \(error.message)")
            }
            guard client.generation == expected else { return .discarded }
            client.session = new
            client.loaded = true
            client.publishSettled()
            return failure.map(CommitOutcome.installedNotStored) ?? .installed
        }
    }

    /// Forgets the session: bumps the generation, clears memory and the store, publishes `signedOut`.
    /// - Returns: The store's error, if removing the record failed.
    @discardableResult
    func clearSession() async -> AuthError? {
        generation += 1
        refreshFlight = nil
        session = nil
        loaded = true
        broadcaster.publish(.signedOut)
        return await serialized { client -> AuthError? in
            do throws(AuthError) {
                try await client.options.store.remove(key: client.storeKey)
                return nil
            } catch {
                client.log(.info, "The stored session could not be removed: \(error.message)")
                return error
            }
        }
    }
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
