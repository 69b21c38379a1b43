import LatchkeyTokens

extension AuthClient {
    /// Signs in with an identifier (email, username, ...) and a password through the provider's password flow.
    /// - Parameters:
    ///   - username: The identifier, sent as `{username}`.
    ///   - password: The password, sent as `{password}`.
    /// A ``signOut(scope:)`` while the request is on the wire wins: the answer's session is discarded, never
    /// stored, as for the code exchange.
    /// - Returns: The new session.
    /// - Throws: `invalid_configuration` when the provider has no password flow; `validation_failed` for an
    ///   empty identifier or password; the provider's mapped error (`invalid_credentials`, ...);
    ///   `login_cancelled` when the client was signed out while the request was on the wire.
    @discardableResult
    public func signIn(username: String, password: String) async throws(AuthError) -> Session {
        guard let flow = provider.flows.password else {
            throw failure(.invalidConfiguration, "This provider has no password sign-in.")
        }
        let grant = try PasswordGrant(flow: flow, username: username, password: password, provider: provider.name)
        let previous = state
        apply(.signInStarted)
        let fence = signInFence()
        do {
            let proofKey = try newProofKey()
            let (spec, document, response) = try await send(grant.request, proofKey: proofKey)
            return try await install(
                try decodeSession(document, response, request: spec, proofKey: proofKey), fence: fence)
        } catch {
            publishAfterFailure(previous: previous)
            throw error
        }
    }
}
