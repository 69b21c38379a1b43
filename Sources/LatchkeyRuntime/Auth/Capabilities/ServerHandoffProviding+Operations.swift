import Foundation

extension ServerHandoffProviding {
    /// The payload a backend receives to take over the session: the access and refresh tokens, the
    /// token type and lifetime, and the principal from the verified access token.
    /// - Returns: The JSON payload.
    /// - Throws: `session_missing` when signed out, `invalid_token` when the access token fails verification.
    public func serverHandoff() async throws(AuthError) -> Data { try await client.serverHandoff() }
}
