import Foundation
import LatchkeyTokens

/// Adds a `DPoP` proof header (RFC 9449 §4) to every request of a client that proves possession of a key:
/// `htm` and `htu` from the request, `ath` when it carries an access token, and the last nonce the server gave in that role (``DPoPNonces``).
struct DPoPProofStage: RequestStage {
    func prepare(_ request: inout TransportRequest, context: RequestContext) throws(AuthError) {
        guard let key = context.proofKey else { return }
        let role = DPoPNonces.Role(carriesAccessToken: context.accessToken != nil)
        let proof = try DPoPProof.make(
            key: key, method: request.method, url: request.url, accessToken: context.accessToken,
            nonce: context.nonces?.nonce(for: request.url, role: role), issuedAt: context.now(),
            jti: context.makeIdentifier())
        request.setHeader("DPoP", proof)
    }
}
