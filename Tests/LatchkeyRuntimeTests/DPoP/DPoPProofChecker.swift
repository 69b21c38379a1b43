import Foundation
@_spi(Generated) import LatchkeyRuntime
import LatchkeyTesting
import LatchkeyTokens

/// Checks a DPoP proof as a server does (RFC 9449 §4.3), independently of how the client made it: the form, key
/// and signature as the simulator checks them (``DPoPProofSignature``), then the claims, `htu` compared exactly
/// (stricter than the simulator, which normalises it as a server may).
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
        let verified: DPoPProofSignature
        switch DPoPProofSignature.verify(proof) {
        case .success(let signed): verified = signed
        case .failure(.notCompactJWS): return .failure(Refusal("not a JWS"))
        case .failure(.type): return .failure(Refusal("typ"))
        case .failure(.algorithm): return .failure(Refusal("alg"))
        case .failure(.noKey), .failure(.notP256): return .failure(Refusal("jwk"))
        case .failure(.privateKey): return .failure(Refusal("private key in jwk"))
        case .failure(.signature): return .failure(Refusal("signature"))
        }
        let claims = verified.claims
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
        return .success(
            Proof(
                jkt: verified.jkt, jti: jti, htm: method, htu: url, iat: iat, ath: ath,
                nonce: claims["nonce"] as? String))
    }
}
