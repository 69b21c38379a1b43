import LatchkeyTokens

/// What a grant asks the pipeline to send: one of the descriptor's requests, with the grant's variables.
struct GrantRequest: Sendable {
    /// The request's name in ``ProviderSpec/requests``.
    var name: String
    /// The grant's variables (`{username}`, `{scope}`, `{device_code}`, …); `nil` leaves a parameter out.
    var variables: [String: JSON?]
    /// Whether it is a token request, which gets the extra token parameters.
    var isTokenRequest: Bool
    /// The access token an `.accessToken` request carries: the session's the grant works on (a refresh's, a
    /// revocation's); `nil` for the client's valid one.
    var accessToken: String? = nil
}

extension AuthClient {
    /// Sends a grant's request through the pipeline (see ``send(_:flow:accessToken:isTokenRequest:proofKey:)``).
    /// - Parameters:
    ///   - request: The grant's request.
    ///   - proofKey: The DPoP key its proof proves possession of (the new session's, or that of the session whose
    ///     access token the request carries), if any.
    /// - Returns: The request spec, the JSON body (if any) and the response.
    func send(_ request: GrantRequest, proofKey: DPoPKey?) async throws(AuthError) -> (
        spec: RequestSpec, document: JSON?, response: TransportResponse
    ) {
        try await send(
            request.name, flow: request.variables, accessToken: request.accessToken,
            isTokenRequest: request.isTokenRequest, proofKey: proofKey)
    }
}
