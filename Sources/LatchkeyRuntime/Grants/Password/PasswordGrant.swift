import LatchkeyTokens

/// The password grant (RFC 6749 §4.3) as a unit: the request it sends and with what. Its answer is a token
/// response like any sign-in's (``AuthClient/decodeSession(_:_:request:proofKey:)``).
struct PasswordGrant: Sendable {
    /// The request.
    let request: GrantRequest

    /// A password grant for these credentials.
    /// - Throws: `validation_failed` for an empty identifier or password.
    init(flow: PasswordFlowSpec, username: String, password: String, provider: String) throws(AuthError) {
        guard !username.isEmpty, !password.isEmpty else {
            throw AuthError(.validationFailed, "The identifier and the password must not be empty.", provider: provider)
        }
        request = GrantRequest(
            name: flow.request, variables: ["username": .string(username), "password": .string(password)],
            isTokenRequest: false)
    }
}
