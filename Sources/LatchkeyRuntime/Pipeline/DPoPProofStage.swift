import Foundation
import LatchkeyTokens

/// Adds a `DPoP` proof header (RFC 9449 §4) to every request of a client that proves possession of a key:
/// `htm` and `htu` from the request, `ath` when it carries an access token, and the server's last nonce.
struct DPoPProofStage: RequestStage {
    func prepare(_ request: inout TransportRequest, context: RequestContext) throws(AuthError) {
        guard let key = context.proofKey else { return }
        let proof = try DPoPProof.make(
            key: key, method: request.method, url: request.url, accessToken: context.accessToken,
            nonce: context.nonces?.nonce(for: request.url), issuedAt: context.now(), jti: context.makeIdentifier())
        request.setHeader("DPoP", proof)
    }
}
