import Foundation
import LatchkeyTokens

extension IDTokenValidator {
    /// Validates an ID token from a refresh response (OpenID Connect Core §12.2).
    ///
    /// The token is validated like a new one, except that no `nonce` is required (one that is present
    /// must equal the original's) and `max_age` is not applied; and `iss`, `sub`, `aud` and `azp` must be
    /// those of the original token.
    /// - Parameters:
    ///   - newToken: The compact ID token from the refresh response.
    ///   - previousClaims: The claims of the token it replaces.
    ///   - keys: The issuer's keys.
    ///   - accessToken: The access token issued with it, to check `at_hash` when the token has one.
    /// - Returns: The verified claims of the new token.
    /// - Throws: ``AuthError`` `invalid_id_token` when the token fails a check or names another user,
    ///   issuer or audience.
    public func validateRefreshed(
        newToken: String, previousClaims: IDTokenClaims, keys: JSONWebKeySet, accessToken: String? = nil
    ) throws(AuthError) -> IDTokenClaims {
        let token = try JWSToken(compact: newToken, failureCode: .invalidIDToken)
        return try validateRefreshed(token, previousClaims: previousClaims, keys: keys, accessToken: accessToken)
    }

    /// Validates an ID token from a refresh response, with keys from a cache.
    /// - Parameters:
    ///   - newToken: The compact ID token from the refresh response.
    ///   - previousClaims: The claims of the token it replaces.
    ///   - cache: The issuer's JWKS cache.
    ///   - accessToken: The access token issued with it, to check `at_hash` when the token has one.
    /// - Returns: The verified claims of the new token.
    /// - Throws: ``AuthError`` `invalid_id_token` when the token fails a check; the cache's errors when the
    ///   JWKS cannot be fetched.
    public func validateRefreshed(
        newToken: String, previousClaims: IDTokenClaims, keys cache: JWKSCache, accessToken: String? = nil
    ) async throws(AuthError) -> IDTokenClaims {
        let token = try JWSToken(compact: newToken, failureCode: .invalidIDToken)
        let keys = try await keySet(for: token, from: cache)
        return try validateRefreshed(token, previousClaims: previousClaims, keys: keys, accessToken: accessToken)
    }

    private func validateRefreshed(
        _ token: JWSToken, previousClaims previous: IDTokenClaims, keys: JSONWebKeySet, accessToken: String?
    ) throws(AuthError) -> IDTokenClaims {
        let claims = try validate(
            token, keys: keys, nonce: .absentOrEqual(previous.nonce), accessToken: accessToken, checksMaxAge: false)
        guard claims.iss == previous.iss else {
            throw AuthError(.invalidIDToken, "the refreshed token's iss differs from the original token's")
        }
        guard claims.sub == previous.sub else {
            throw AuthError(.invalidIDToken, "the refreshed token's sub differs from the original token's")
        }
        guard Set(claims.aud) == Set(previous.aud) else {
            throw AuthError(.invalidIDToken, "the refreshed token's aud differs from the original token's")
        }
        guard claims.azp == previous.azp else {
            throw AuthError(.invalidIDToken, "the refreshed token's azp differs from the original token's")
        }
        // `auth_time` is not compared: some providers (django-oauth-toolkit) report the user's latest login
        // there, which moves when the user signs in elsewhere. `iss`, `sub`, `aud` and `azp` are what keep a
        // refreshed token from naming another user or client.
        return claims
    }
}
