import Foundation

/// Makes DPoP proof JWTs (RFC 9449 §4.2): `typ: dpop+jwt`, `alg: ES256` and the public `jwk` in the header;
/// `jti`, `htm`, `htu`, `iat`, and `ath` (resource requests) and `nonce` (when the server gave one) in the claims.
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
        let header = JSON.object(["alg": .string("ES256"), "jwk": key.publicJWK, "typ": .string("dpop+jwt")])
        var claims: [String: JSON] = [
            "htm": .string(method), "htu": .string(targetURI(url)),
            "iat": .number(issuedAt.timeIntervalSince1970.rounded(.down)),
            "jti": .string(jti),
        ]
        if let accessToken { claims["ath"] = .string(accessTokenHash(accessToken)) }
        if let nonce { claims["nonce"] = .string(nonce) }
        let signingInput =
            Base64URL.encode(header.serialized) + "." + Base64URL.encode(JSON.object(claims).serialized)
        return signingInput + "." + Base64URL.encode(try key.sign(Array(signingInput.utf8)))
    }

    /// `htu`: the URL without its query and fragment (RFC 9449 §4.2).
    static func targetURI(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.percentEncodedQuery = nil
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    /// `ath`: base64url of the SHA-256 of the access token's ASCII bytes.
    static func accessTokenHash(_ accessToken: String) -> String {
        Base64URL.encode(SHA2Hash.sha256(Array(accessToken.utf8)))
    }
}
