import Foundation
@_spi(Generated) import LatchkeyRuntime
import LatchkeyTokens

/// Checks a DPoP proof as a server does (RFC 9449 §4.3), independently of how the client made it: the JWS is
/// parsed with `JSONSerialization`, the signature verified with libcrypto (``SignatureVerifier``) against the
/// `jwk` in its header, and the thumbprint computed from that `jwk`'s members.
struct DPoPProofChecker {
    struct Proof: Sendable {
        var jkt: String
        var jti: String
        var htm: String
        var htu: String
        var iat: Double
        var ath: String?
        var nonce: String?
    }

    /// Why a proof was refused.
    struct Refusal: Error, Equatable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Why a proof is refused, or the proof.
    static func check(
        _ proof: String?, method: String, url: String, accessToken: String?, now: Date
    ) -> Result<Proof, Refusal> {
        guard let proof else { return .failure(Refusal("no DPoP header")) }
        let parts = proof.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let claimBytes = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
            let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: Data(claimBytes))) as? [String: Any]
        else { return .failure(Refusal("not a JWS")) }
        guard header["typ"] as? String == "dpop+jwt" else { return .failure(Refusal("typ")) }
        guard header["alg"] as? String == "ES256" else { return .failure(Refusal("alg")) }
        guard let jwk = header["jwk"] as? [String: Any], jwk["kty"] as? String == "EC",
            jwk["crv"] as? String == "P-256", let x = jwk["x"] as? String, let y = jwk["y"] as? String,
            let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y)
        else { return .failure(Refusal("jwk")) }
        guard jwk["d"] == nil else { return .failure(Refusal("private key in jwk")) }
        let valid =
            (try? SignatureVerifier.verify(
                algorithm: .es256, key: .ec(curve: "P-256", x: xBytes, y: yBytes),
                message: Array((parts[0] + "." + parts[1]).utf8), signature: signature)) ?? false
        guard valid else { return .failure(Refusal("signature")) }
        guard let jti = claims["jti"] as? String, !jti.isEmpty else { return .failure(Refusal("jti")) }
        guard claims["htm"] as? String == method else { return .failure(Refusal("htm")) }
        guard claims["htu"] as? String == url else { return .failure(Refusal("htu")) }
        guard let iat = (claims["iat"] as? NSNumber)?.doubleValue, abs(iat - now.timeIntervalSince1970) < 300 else {
            return .failure(Refusal("iat"))
        }
        let ath = claims["ath"] as? String
        if let accessToken {
            let expected = Base64URL.encode(SHA2Hash.sha256(Array(accessToken.utf8)))
            guard ath == expected else { return .failure(Refusal("ath")) }
        }
        let canonical = #"{"crv":"P-256","kty":"EC","x":""# + x + #"","y":""# + y + #""}"#
        let jkt = Base64URL.encode(SHA2Hash.sha256(Array(canonical.utf8)))
        return .success(
            Proof(
                jkt: jkt, jti: jti, htm: method, htu: url, iat: iat, ath: ath, nonce: claims["nonce"] as? String))
    }
}
