import Foundation
import LatchkeyTokens

/// Remembers every `DPoP-Nonce` a server sends (when it is a nonce: ``DPoPNonces/isNonce(_:)``), and asks for
/// one retry when the server refused a proof for want of it (RFC 9449 §8, §9): a token endpoint's 400
/// `{"error":"use_dpop_nonce"}`, or a resource server's 401 with `WWW-Authenticate: DPoP error="use_dpop_nonce"`
/// (the scheme in any letter case, alone or among other challenges: see ``AuthenticationChallenges``).
struct DPoPNonceRetryStage: RequestStage {
    func prepare(_ request: inout TransportRequest, context: RequestContext) throws(AuthError) {}

    func interpret(_ response: TransportResponse, to request: TransportRequest, context: RequestContext)
        -> RequestStageVerdict
    {
        guard context.proofKey != nil, let nonces = context.nonces,
            let nonce = response.header("DPoP-Nonce")?.trimmingCharacters(in: .whitespaces), !nonce.isEmpty
        else { return .accept }
        // A retry carries the nonce; one that is not a nonce (RFC 9449 §8.1) is not remembered, and retrying
        // without it would only be refused again.
        let role = DPoPNonces.Role(carriesAccessToken: context.accessToken != nil)
        guard nonces.remember(nonce, for: request.url, role: role) else { return .accept }
        return Self.asksForNonce(response) ? .retry : .accept
    }

    /// Whether a response is a `use_dpop_nonce` error.
    static func asksForNonce(_ response: TransportResponse) -> Bool {
        switch response.status {
        case 400:
            return JSON(data: response.body)?["error"]?.string == "use_dpop_nonce"
        case 401:
            // The `DPoP` challenge's `error` parameter, wherever the challenge stands among others.
            return response.headerFields.values(for: "WWW-Authenticate").contains { field in
                AuthenticationChallenges.values(of: "error", inScheme: "DPoP", of: field).contains("use_dpop_nonce")
            }
        default:
            return false
        }
    }
}
