import Foundation
import LatchkeyTokens

extension AuthClient {
    /// Sends the app's own request to a resource server with the session's access token, through the same
    /// ``RequestPipeline`` as the client's own requests.
    ///
    /// The token is the valid one (refreshed first when it is expiring). A `Bearer` session gets
    /// `Authorization: Bearer …`; a DPoP-bound session (RFC 9449) gets `Authorization: DPoP …` and a `DPoP` proof
    /// for this method and URL with `ath`, and a 401 `WWW-Authenticate: DPoP error="use_dpop_nonce"` is sent
    /// once more with the server's nonce. The response is returned whatever its status.
    /// - Parameter request: The request, without an `Authorization` header.
    /// - Returns: The response.
    /// - Throws: `session_missing` when nobody is signed in; `invalid_request` for a request that already has an
    ///   `Authorization` or `DPoP` header; refresh and transport errors as they are.
    public func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        let context = try await resourceContext(for: request)
        return try await pipeline.send(request, context: context).response
    }

    /// A request with the session's access token added, for an app that sends it with its own HTTP stack:
    /// `Authorization: Bearer …`, or for a DPoP-bound session `Authorization: DPoP …` and a proof for exactly this
    /// method and URL (a proof is good for one request: call again for each). Prefer ``send(_:)``, which also
    /// answers a server's `use_dpop_nonce`.
    /// - Parameter request: The request, without an `Authorization` header.
    /// - Returns: The request with its headers.
    /// - Throws: as ``send(_:)`` before sending.
    public func authorizedRequest(_ request: TransportRequest) async throws(AuthError) -> TransportRequest {
        var authorized = request
        let context = try await resourceContext(for: request)
        for stage in pipeline.stages { try stage.prepare(&authorized, context: context) }
        return authorized
    }

    /// The pipeline context of a resource request: the valid access token, and the session's key when bound.
    private func resourceContext(for request: TransportRequest) async throws(AuthError) -> RequestContext {
        guard !request.headerFields.contains("Authorization"), !request.headerFields.contains("DPoP") else {
            throw failure(.invalidRequest, "The request already has an Authorization or DPoP header.")
        }
        let accessToken = try await validAccessToken()
        let current = session.flatMap { $0.accessToken == accessToken ? $0 : nil }
        if current?.isDPoPBound == true, current?.dpopKey == nil {
            throw failure(.sessionExpired, "The session's DPoP key is missing: sign in again.")
        }
        var context = requestContext(proofKey: usesDPoP ? current?.boundProofKey : nil)
        context.accessToken = accessToken
        context.secrets = [accessToken]
        context.authorizationScheme = context.proofKey == nil ? "Bearer" : "DPoP"
        return context
    }
}
