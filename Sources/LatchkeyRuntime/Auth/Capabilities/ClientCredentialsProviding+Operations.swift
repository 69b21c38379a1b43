import Foundation

extension ClientCredentialsProviding {
    /// An access token for the client itself, for server-side tools created with a `clientSecret`.
    /// Cached until shortly before it expires; concurrent callers share one request.
    /// - Parameters:
    ///   - scopes: The scopes to request (default: the descriptor's).
    ///   - forceRefresh: Whether to request a new token even when the cached one is still fresh.
    /// - Returns: The token and its expiry; it is never stored as the session.
    /// - Throws: `invalid_configuration` without a client secret; `invalid_client` for a wrong secret.
    public func clientCredentialsToken(scopes: [String]? = nil, forceRefresh: Bool = false) async throws(AuthError)
        -> ClientCredentialsToken
    {
        try await client.clientCredentialsToken(scopes: scopes, forceRefresh: forceRefresh)
    }

    /// Forgets every cached client-credentials token, so that the next call requests a new one.
    public func discardClientCredentialsTokens() async { await client.discardClientCredentialsTokens() }
}
