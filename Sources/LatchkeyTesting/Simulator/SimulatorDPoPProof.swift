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
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let claimBytes = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
            let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: Data(claimBytes))) as? [String: Any]
        else { return .failure(Refusal("The DPoP proof is not a compact JWS.")) }
        guard header["typ"] as? String == "dpop+jwt" else { return .failure(Refusal("The typ is not dpop+jwt.")) }
        guard header["alg"] as? String == "ES256" else { return .failure(Refusal("Only ES256 proofs are accepted.")) }
        guard let jwk = header["jwk"] as? [String: Any] else { return .failure(Refusal("The proof has no jwk.")) }
        guard jwk["d"] == nil else { return .failure(Refusal("The jwk holds a private key.")) }
        guard jwk["kty"] as? String == "EC", jwk["crv"] as? String == "P-256", let x = jwk["x"] as? String,
            let y = jwk["y"] as? String, let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y)
        else { return .failure(Refusal("The jwk is not a P-256 public key.")) }
        let valid =
            (try? SignatureVerifier.verify(
                algorithm: .es256, key: .ec(curve: "P-256", x: xBytes, y: yBytes),
                message: Array((parts[0] + "." + parts[1]).utf8), signature: signature)) ?? false
        guard valid else { return .failure(Refusal("The proof's signature does not verify with its jwk.")) }
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
            SimulatorDPoPProof(jkt: thumbprint(x: x, y: y), jti: jti, iat: iat, nonce: claims["nonce"] as? String))
    }

    /// The RFC 7638 thumbprint of a P-256 public JWK: SHA-256 of its required members in lexicographic order.
    static func thumbprint(x: String, y: String) -> String {
        let canonical = #"{"crv":"P-256","kty":"EC","x":""# + x + #"","y":""# + y + #""}"#
        return Base64URL.encode(SHA2Hash.sha256(Array(canonical.utf8)))
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
