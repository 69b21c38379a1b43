import Foundation
import LatchkeyTokens

extension IDTokenValidator {
    /// Verifies an ID token kept in a stored record: the signature against the issuer's keys with an
    /// accepted algorithm, then `iss`, `aud` and `azp`. Its times and nonce are not checked, since a record an
    /// earlier version left may be old; the check proves only who issued the token and for whom.
    /// - Parameters:
    ///   - idToken: The compact ID token.
    ///   - cache: The issuer's JWKS cache.
    /// - Returns: The verified claims.
    /// - Throws: ``AuthError`` `invalid_id_token` when the token fails a check (`alg: none` and HMAC
    ///   included); the cache's errors when the JWKS cannot be fetched.
    func verifyIssuer(of idToken: String, keys cache: JWKSCache) async throws(AuthError) -> IDTokenClaims {
        let token = try JWSToken(compact: idToken, failureCode: .invalidIDToken)
        if let type = token.header.type, Self.foreignTypes.contains(type.lowercased()) {
            throw AuthError(.invalidIDToken, "the token's typ \(MessageText.quoted(type)) is not an ID token type")
        }
        let keys = try await keySet(for: token, from: cache)
        let algorithm = try token.signatureAlgorithm(allowed: allowedAlgorithms)
        try token.verifySignature(keys: keys, allowedAlgorithms: [algorithm])
        let claims = try IDTokenClaims(raw: token.payload, failureCode: .invalidIDToken)
        try checkIssuerAndAudience(claims)
        return claims
    }
}
