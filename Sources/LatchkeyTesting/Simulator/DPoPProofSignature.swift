import Foundation
import LatchkeyTokens

/// The part of checking a DPoP proof (RFC 9449 §4.3) that does not depend on the request: the compact JWS parsed
/// with `JSONSerialization`, `typ` and `alg`, a public P-256 `jwk`, and the signature verified with the platform's
/// crypto library (``SignatureVerifier``) against that `jwk`; independently of how the client made the proof.
/// The simulator and the runtime's own test servers check the claims on top of it.
package struct DPoPProofSignature {
    /// The proof's claims.
    package let claims: [String: Any]
    /// The RFC 7638 thumbprint of its key (SHA-256, base64url): what tokens are bound to.
    package let jkt: String

    /// Why a proof's form, key or signature is refused.
    package enum Refusal: Error, Sendable, Equatable {
        /// Not three base64url segments of JSON objects.
        case notCompactJWS
        /// `typ` is not `dpop+jwt`.
        case type
        /// `alg` is not `ES256`.
        case algorithm
        /// The header has no `jwk`.
        case noKey
        /// The `jwk` holds a private key (`d`).
        case privateKey
        /// The `jwk` is not a P-256 public key.
        case notP256
        /// The signature does not verify with the `jwk`.
        case signature
    }

    /// Parses and verifies a proof.
    /// - Parameter text: The `DPoP` header's value.
    /// - Returns: The claims and the key's thumbprint, or why the proof is refused.
    package static func verify(_ text: String) -> Result<DPoPProofSignature, Refusal> {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let claimBytes = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
            let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: Data(claimBytes))) as? [String: Any]
        else { return .failure(.notCompactJWS) }
        guard header["typ"] as? String == "dpop+jwt" else { return .failure(.type) }
        guard header["alg"] as? String == "ES256" else { return .failure(.algorithm) }
        guard let jwk = header["jwk"] as? [String: Any] else { return .failure(.noKey) }
        guard jwk["d"] == nil else { return .failure(.privateKey) }
        guard jwk["kty"] as? String == "EC", jwk["crv"] as? String == "P-256", let x = jwk["x"] as? String,
            let y = jwk["y"] as? String, let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y)
        else { return .failure(.notP256) }
        let valid =
            (try? SignatureVerifier.verify(
                algorithm: .es256, key: .ec(curve: "P-256", x: xBytes, y: yBytes),
                message: Array((parts[0] + "." + parts[1]).utf8), signature: signature)) ?? false
        guard valid else { return .failure(.signature) }
        return .success(DPoPProofSignature(claims: claims, jkt: thumbprint(x: x, y: y)))
    }

    /// The RFC 7638 thumbprint of a P-256 public JWK: SHA-256 of its required members in lexicographic order.
    package static func thumbprint(x: String, y: String) -> String {
        let canonical = #"{"crv":"P-256","kty":"EC","x":""# + x + #"","y":""# + y + #""}"#
        return Base64URL.encode(SHA2Hash.sha256(Array(canonical.utf8)))
    }
}
