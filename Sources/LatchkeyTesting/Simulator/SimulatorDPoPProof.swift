import Foundation
import LatchkeyTokens

/// A DPoP proof (RFC 9449 §4) as the simulator checks it, independently of how the client made it: the compact
/// JWS is parsed with `JSONSerialization`, its signature verified with the platform's crypto library
/// (``SignatureVerifier``) against the public `jwk` of its header, and the key's thumbprint (RFC 7638) computed
/// from that `jwk`.
struct SimulatorDPoPProof: Sendable {
    /// The key's RFC 7638 thumbprint (SHA-256, base64url): what tokens are bound to.
    var jkt: String
    var jti: String
    var iat: Double
    var nonce: String?

    /// How far a proof's `iat` may be from the simulator's clock, in seconds, either way.
    static let issuedAtWindow: Double = 300
    /// The longest `DPoP` header the simulator reads.
    static let maximumLength = 8192

    /// Why a proof is refused (for the `error_description`; never a secret).
    struct Refusal: Error, Sendable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Checks a proof's form, key, signature, `htm`, `htu`, `iat` and `ath` (nonce and replay are the caller's:
    /// they need the simulator's state).
    /// - Parameters:
    ///   - text: The `DPoP` header.
    ///   - method: The request's method (`htm`).
    ///   - url: The request's URL without query and fragment, as the simulator serves it (`htu`).
    ///   - accessToken: The access token the request presents, whose hash `ath` must be; `nil` at a token
    ///     endpoint.
    ///   - now: The simulator's clock.
    static func check(
        _ text: String, method: String, url: URL, accessToken: String?, now: Date
    ) -> Result<SimulatorDPoPProof, Refusal> {
        guard text.utf8.count <= maximumLength else { return .failure(Refusal("The DPoP proof is too long.")) }
        let verified: DPoPProofSignature
        switch DPoPProofSignature.verify(text) {
        case .success(let proof): verified = proof
        case .failure(let refusal): return .failure(Refusal(Self.sentence(for: refusal)))
        }
        let claims = verified.claims
        guard let jti = claims["jti"] as? String, !jti.isEmpty, jti.utf8.count <= 256 else {
            return .failure(Refusal("The proof has no jti."))
        }
        guard claims["htm"] as? String == method else { return .failure(Refusal("The htm is not \(method).")) }
        guard let htu = claims["htu"] as? String, sameTarget(htu, url) else {
            return .failure(Refusal("The htu is not \(url.absoluteString)."))
        }
        guard let iat = (claims["iat"] as? NSNumber)?.doubleValue,
            abs(iat - now.timeIntervalSince1970) <= issuedAtWindow
        else { return .failure(Refusal("The iat is missing or too far from the server's clock.")) }
        if let accessToken {
            guard claims["ath"] as? String == Base64URL.encode(SHA2Hash.sha256(Array(accessToken.utf8))) else {
                return .failure(Refusal("The ath is not the hash of the access token."))
            }
        }
        return .success(
            SimulatorDPoPProof(jkt: verified.jkt, jti: jti, iat: iat, nonce: claims["nonce"] as? String))
    }

    /// The simulator's `error_description` for a proof refused for its form, key or signature.
    private static func sentence(for refusal: DPoPProofSignature.Refusal) -> String {
        switch refusal {
        case .notCompactJWS: "The DPoP proof is not a compact JWS."
        case .type: "The typ is not dpop+jwt."
        case .algorithm: "Only ES256 proofs are accepted."
        case .noKey: "The proof has no jwk."
        case .privateKey: "The jwk holds a private key."
        case .notP256: "The jwk is not a P-256 public key."
        case .signature: "The proof's signature does not verify with its jwk."
        }
    }

    /// Whether an `htu` names the URL (RFC 9449 §4.3: query and fragment ignored, scheme and host compared
    /// case-insensitively, a default port the same as none, the path percent-decoded without a trailing slash).
    static func sameTarget(_ htu: String, _ url: URL) -> Bool {
        guard let claimed = URLComponents(string: htu),
            let served = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return false }
        func port(_ components: URLComponents) -> Int? {
            components.port ?? (components.scheme?.lowercased() == "https" ? 443 : 80)
        }
        return claimed.scheme?.lowercased() == served.scheme?.lowercased()
            && claimed.host?.lowercased() == served.host?.lowercased() && port(claimed) == port(served)
            && SimulatorRoutes.normalize(claimed.percentEncodedPath)
                == SimulatorRoutes.normalize(served.percentEncodedPath)
    }
}
