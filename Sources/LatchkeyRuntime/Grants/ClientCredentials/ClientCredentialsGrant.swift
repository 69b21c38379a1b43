import LatchkeyTokens

/// The client credentials grant (RFC 6749 §4.4) as a unit: the request it sends for a scope, and how its answer
/// becomes a ``ClientCredentialsToken`` (never a session; a refresh token in it is dropped).
struct ClientCredentialsGrant: Sendable {
    /// The flow.
    let flow: ClientCredentialsFlowSpec
    /// The scope requested, joined with the flow's separator (empty: no `scope` is sent).
    let scope: String

    /// The request.
    var request: GrantRequest {
        GrantRequest(
            name: flow.request, variables: ["scope": scope.isEmpty ? nil : .string(scope)], isTokenRequest: true)
    }

    /// The token the answer grants: the granted scopes (the requested ones when the answer names none), split on
    /// the flow's separator or a space.
    /// - Parameter session: The token response, decoded.
    func token(from session: Session) -> ClientCredentialsToken {
        let granted = session.scope ?? (scope.isEmpty ? nil : scope)
        let separator = flow.scopeSeparator.isEmpty ? " " : flow.scopeSeparator
        let scopes = (granted ?? "").split(whereSeparator: { separator.contains($0) || $0 == " " }).map(String.init)
        return ClientCredentialsToken(
            accessToken: session.accessToken, tokenType: session.tokenType, expiresAt: session.expiresAt,
            issuedAt: session.issuedAt, scopes: scopes)
    }
}
