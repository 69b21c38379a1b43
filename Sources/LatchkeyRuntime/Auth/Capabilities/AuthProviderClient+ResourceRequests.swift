import Foundation
import LatchkeyTokens

extension AuthProviderClient {
    /// Sends the app's own request to a resource server with the session's access token: `Bearer`, or for a
    /// DPoP-bound session (RFC 9449) `DPoP` with a proof (`ath` included) and one retry on `use_dpop_nonce`.
    /// Refreshes first when the token is expiring; the response is returned whatever its status.
    /// - Parameter request: The request, without an `Authorization` header.
    /// - Returns: The response, whatever its status.
    /// - Throws: `session_missing` when nobody is signed in; refresh and transport errors.
    public func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        try await client.send(request)
    }

    /// The request with the session's access token (and, for a DPoP-bound session, a proof for exactly this
    /// method and URL) added, for an app's own HTTP stack. A proof is good for one request: call this
    /// for each.
    /// - Parameter request: The request, without an `Authorization` header.
    /// - Returns: The request with its headers.
    /// - Throws: `session_missing` when nobody is signed in; refresh errors.
    public func authorizedRequest(_ request: TransportRequest) async throws(AuthError) -> TransportRequest {
        try await client.authorizedRequest(request)
    }
}
