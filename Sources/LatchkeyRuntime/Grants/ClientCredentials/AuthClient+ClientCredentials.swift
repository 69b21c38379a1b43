import Foundation
import LatchkeyTokens

extension AuthClient {
    /// An access token for the client itself (client credentials grant, RFC 6749 §4.4), for server-side
    /// tools.
    ///
    /// The token request authenticates the client as the descriptor says (`basic` or `post`) with the
    /// secret given at run time in ``ProviderConfiguration/clientSecret``. The token is kept in memory,
    /// per scope list, until it expires within ``AuthClientOptions/refreshLeeway``; concurrent callers
    /// for the same scopes share one request. It never becomes the session, and a refresh token in the
    /// answer is dropped.
    /// - Parameters:
    ///   - scopes: The scopes (default: the flow's default scopes; none sends no `scope`).
    ///   - forceRefresh: Whether to request a new token even when the cached one is still fresh.
    /// - Returns: The token.
    /// - Throws: `invalid_configuration` when the provider has no client credentials grant or no secret
    ///   was supplied; the provider's mapped error (`invalid_client`, `invalid_scope`, ...); transport
    ///   errors as they are. Failures are not cached.
    public func clientCredentialsToken(scopes: [String]? = nil, forceRefresh: Bool = false) async throws(AuthError)
        -> ClientCredentialsToken
    {
        guard let flow = provider.flows.clientCredentials else {
            throw failure(.invalidConfiguration, "This provider has no client credentials grant.")
        }
        let scope = (scopes ?? flow.defaultScopes).joined(separator: flow.scopeSeparator)
        if !forceRefresh, let cached = clientCredentialsCache.tokens[scope],
            !cached.isExpired(at: now(), leeway: options.refreshLeeway)
        {
            return cached
        }
        if let flight = clientCredentialsCache.flights[scope] {
            let result = await flight.task.value
            // Discarded while in flight: that token must not be returned either; ask again.
            guard flight.generation == clientCredentialsCache.generation else {
                return try await clientCredentialsToken(scopes: scopes, forceRefresh: forceRefresh)
            }
            return try result.get()
        }
        let id = clientCredentialsCache.nextID
        clientCredentialsCache.nextID += 1
        let generation = clientCredentialsCache.generation
        let task = Task<Result<ClientCredentialsToken, AuthError>, Never> {
            do throws(AuthError) {
                return .success(try await self.requestClientCredentials(flow, scope: scope))
            } catch {
                return .failure(error)
            }
        }
        clientCredentialsCache.flights[scope] = ClientCredentialsCache.Flight(
            id: id, generation: generation, task: task)
        let result = await task.value
        guard generation == clientCredentialsCache.generation else {
            // ``discardClientCredentialsTokens()`` ran while this request was on the wire: its token is neither
            // cached nor returned, and this caller gets one requested after the discard.
            log(.debug, "A client credentials token arrived after a discard and was dropped.")
            return try await clientCredentialsToken(scopes: scopes, forceRefresh: forceRefresh)
        }
        if clientCredentialsCache.flights[scope]?.id == id {
            clientCredentialsCache.flights[scope] = nil
            if case .success(let token) = result {
                if token.expiresAt == nil {
                    clientCredentialsCache.tokens[scope] = nil
                } else {
                    clientCredentialsCache.tokens[scope] = token
                }
            }
        }
        return try result.get()
    }

    /// Forgets the cached client credentials tokens (the next call requests a new one).
    ///
    /// A request in flight at that moment is fenced off: its token is neither cached nor returned, and its
    /// callers get a token requested after the discard.
    public func discardClientCredentialsTokens() {
        clientCredentialsCache.tokens.removeAll()
        clientCredentialsCache.flights.removeAll()
        clientCredentialsCache.generation += 1
    }

    /// Sends the token request and decodes the answer.
    private func requestClientCredentials(_ flow: ClientCredentialsFlowSpec, scope: String) async throws(AuthError)
        -> ClientCredentialsToken
    {
        let grant = ClientCredentialsGrant(flow: flow, scope: scope)
        let proofKey = try newProofKey()
        let (_, document, response) = try await send(grant.request, proofKey: proofKey)
        let session = try decodeSession(document, response, proofKey: proofKey)
        if session.refreshToken != nil {
            log(.debug, "The client credentials answer carried a refresh token; it was dropped.")
        }
        return grant.token(from: session)
    }
}
