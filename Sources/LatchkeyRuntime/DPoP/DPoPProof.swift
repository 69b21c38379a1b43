import Foundation
import LatchkeyTokens

/// Makes DPoP proof JWTs (RFC 9449 §4.2): `typ: dpop+jwt`, `alg: ES256` and the public `jwk` in the header;
/// `jti`, `htm`, `htu`, `iat`, and `ath` (resource requests) and `nonce` (when the server gave one) in the claims.
///
/// The header is the same for every proof of a key, so ``DPoPKey`` encodes it once; each proof writes its claims
/// (members sorted by name, as ``JSON/serialized`` does) and the signature as bytes into one buffer. Every proof
/// has its own `jti` and its own ECDSA signature.
package enum DPoPProof {
    /// A proof for one request.
    /// - Parameters:
    ///   - key: The session's key.
    ///   - method: The request's method (`htm`).
    ///   - url: The request's URL; `htu` is it without query and fragment.
    ///   - accessToken: The access token the request carries, for `ath` (resource requests only).
    ///   - nonce: The server's last `DPoP-Nonce`, if any.
    ///   - issuedAt: `iat`, whole seconds.
    ///   - jti: A unique identifier.
    /// - Returns: The compact JWS.
    package static func make(
        key: DPoPKey, method: String, url: URL, accessToken: String?, nonce: String?, issuedAt: Date, jti: String
    ) throws(AuthError) -> String {
        var claims: [UInt8] = [UInt8(ascii: "{")]
        claims.reserveCapacity(256)
        if let accessToken { DPoPEncoding.appendMember("ath", string: accessTokenHash(accessToken), to: &claims) }
        DPoPEncoding.appendMember("htm", string: method, to: &claims)
        DPoPEncoding.appendMember("htu", string: targetURI(url), to: &claims)
        DPoPEncoding.appendMember(
            "iat", integer: Int64(issuedAt.timeIntervalSince1970.rounded(.down)), to: &claims)
        DPoPEncoding.appendMember("jti", string: jti, to: &claims)
        if let nonce { DPoPEncoding.appendMember("nonce", string: nonce, to: &claims) }
        claims.append(UInt8(ascii: "}"))

        var proof = key.encodedHeader
        proof.reserveCapacity(proof.count + claims.count * 4 / 3 + 90)
        DPoPEncoding.appendBase64URL(claims, to: &proof)
        let signature = try key.sign(proof)
        proof.append(UInt8(ascii: "."))
        DPoPEncoding.appendBase64URL(signature, to: &proof)
        return String(decoding: proof, as: UTF8.self)
    }

    /// The JSON of a proof's header for the public key `(x, y)`: `alg`, the public `jwk`, `typ`.
    static func header(x: [UInt8], y: [UInt8]) -> [UInt8] {
        let jwk = JSON.object([
            "crv": .string("P-256"), "kty": .string("EC"), "x": .string(Base64URL.encode(x)),
            "y": .string(Base64URL.encode(y)),
        ])
        return Array(JSON.object(["alg": .string("ES256"), "jwk": jwk, "typ": .string("dpop+jwt")]).serialized)
    }

    /// `htu`: the URL without its query and fragment (RFC 9449 §4.2): its text up to the first `?` or `#` (a
    /// query starts at the first `?`, a fragment at the first `#`; neither can appear unescaped before them).
    static func targetURI(_ url: URL) -> String {
        let text = url.absoluteString
        guard let end = text.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) else {
            return text
        }
        return String(text[..<end])
    }

    /// `ath`: base64url of the SHA-256 of the access token's ASCII bytes.
    static func accessTokenHash(_ accessToken: String) -> String {
        var encoded: [UInt8] = []
        DPoPEncoding.appendBase64URL(SHA2Hash.sha256(accessToken.utf8), to: &encoded)
        return String(decoding: encoded, as: UTF8.self)
    }
}
