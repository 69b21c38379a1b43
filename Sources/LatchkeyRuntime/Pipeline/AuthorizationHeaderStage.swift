import LatchkeyTokens

/// Adds `Authorization: <scheme> <access token>` to a request that carries the session's access token
/// (`Bearer`, or `DPoP` for a DPoP-bound token).
struct AuthorizationHeaderStage: RequestStage {
    func prepare(_ request: inout TransportRequest, context: RequestContext) throws(AuthError) {
        guard let accessToken = context.accessToken else { return }
        request.headerFields.append("Authorization", context.authorizationScheme + " " + accessToken)
    }
}
