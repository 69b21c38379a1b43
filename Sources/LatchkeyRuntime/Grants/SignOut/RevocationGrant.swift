import LatchkeyTokens

/// The sign-out request as a unit: ending a session's tokens at the provider (an RFC 7009 revocation, GoTrue's
/// logout, …), with the session's tokens as `{access_token}`, `{refresh_token}` and `{id_token}` and the
/// sign-out scope as `{scope}`. Its answer means nothing beyond success: whether a failure is thrown is the
/// sign-out's choice.
struct RevocationGrant: Sendable {
    /// The request that ends the session at the provider.
    let request: GrantRequest
    /// The DPoP key the session's tokens are bound to, which the request's proof proves possession of.
    let proofKey: DPoPKey?

    /// The sign-out request for `session`, or `nil` when the flow has none (a local sign-out).
    /// - Parameters:
    ///   - flow: The sign-out flow.
    ///   - session: The session whose tokens are ended.
    ///   - scope: The sign-out scope (the flow's default scope when `nil`; none sent when it has none).
    init?(flow: SignOutFlowSpec, session: Session, scope: String?) {
        guard let name = flow.request else { return nil }
        request = GrantRequest(
            name: name,
            variables: [
                "scope": (scope ?? flow.defaultScope).map(JSON.string), "access_token": .string(session.accessToken),
                "refresh_token": session.refreshToken.map(JSON.string), "id_token": session.idToken.map(JSON.string),
            ], isTokenRequest: false, accessToken: session.accessToken)
        proofKey = session.boundProofKey
    }
}
