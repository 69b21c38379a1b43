import Foundation
import LatchkeyTokens

extension AuthClient {
    /// Verifies an access token and returns its claims; unverified claims are never returned.
    ///
    /// The token must be a well-formed JWT whose `exp` (when present) is in the future. When its `alg` is
    /// one of the descriptor's asymmetric algorithms (`accessTokenClaims.algorithms`) and its `kid` is in the
    /// project's JWKS (the `keys` request, sent once and kept, again within ``JWKSCache``'s bounds for an
    /// unknown `kid`),
    /// the signature must verify with that key, and `iss` must be the descriptor's issuer when it names one:
    /// a token that fails is refused with no other request. Otherwise (a symmetric `HS256` project, no `kid`,
    /// or a `kid` the JWKS lacks), the descriptor's `fallback` request asks the server with the token itself
    /// (`GET /user` for Supabase, as supabase-js does), and the user it answers with must be the token's `sub`.
    /// The session is never changed.
    /// - Parameter jwt: The token; `nil`: the session's access token (refreshed first when it has expired).
    /// - Returns: The verified claims.
    /// - Throws: `invalid_configuration` when the descriptor has no `accessTokenClaims`; `session_missing`
    ///   without a token or session; `invalid_token` for a malformed, expired, forged or foreign token; the
    ///   JWKS's fetch errors; the fallback request's mapped errors.
    public func verifiedClaims(of jwt: String? = nil) async throws(AuthError) -> VerifiedClaims {
        guard let spec = provider.accessTokenClaims else {
            throw failure(.invalidConfiguration, "This provider's descriptor declares no accessTokenClaims.")
        }
        let token: String
        if let jwt { token = jwt } else { token = try await validAccessToken() }
        let jws = try JWSToken(compact: token, failureCode: .invalidToken)
        if let expiry = jws.payload["exp"]?.double, expiry <= now().timeIntervalSince1970 {
            throw failure(.invalidToken, "The access token has expired.")
        }
        let allowed = Set(spec.algorithms.compactMap(SignatureAlgorithm.init(rawValue:)))
        if let algorithm = SignatureAlgorithm(rawValue: jws.header.algorithm), allowed.contains(algorithm),
            let keyID = jws.header.keyID, let keys = try await claimsKeys(spec, containing: keyID)
        {
            let key = try jws.verifySignature(keys: keys, allowedAlgorithms: allowed)
            if let issuer = spec.issuer {
                let expected = try TemplateRenderer.text(issuer, in: try await scope(rendering: [issuer]))
                guard jws.payload["iss"]?.string == expected else {
                    throw failure(.invalidToken, "The access token's issuer is not this project's.")
                }
            }
            return VerifiedClaims(
                claims: jws.payload, header: jws.header.members,
                verification: .signature(algorithm: algorithm.rawValue, keyID: key.keyID))
        }
        guard let fallback = spec.fallbackRequest else {
            throw failure(.invalidToken, "No published key verifies the access token.")
        }
        let (_, document, _) = try await send(fallback, flow: ["jwt": .string(token)])
        let user = try decoder.user(from: document ?? .null)
        guard let subject = jws.payload["sub"]?.string, subject == user.id else {
            throw failure(.invalidToken, "The server's user is not the one the access token names.")
        }
        return VerifiedClaims(claims: jws.payload, header: jws.header.members, verification: .server)
    }

    /// The authenticator assurance level of the session, read from its access token once verified
    /// (``verifiedClaims(of:)``): the current level and methods from the token's claims (the descriptor's
    /// `accessTokenClaims.assurance`), the next level from the session user's verified factors. Signed out,
    /// every value is empty and nothing is sent.
    /// - Returns: The levels and the methods used.
    /// - Throws: `invalid_configuration` when the descriptor declares no assurance; ``verifiedClaims(of:)``'s
    ///   errors.
    public func assuranceLevel() async throws(AuthError) -> AssuranceLevel {
        guard let assurance = provider.accessTokenClaims?.assurance else {
            throw failure(.invalidConfiguration, "This provider's descriptor declares no assurance level.")
        }
        let token: String
        do {
            token = try await validAccessToken()
        } catch  where error.code == .sessionMissing {
            return AssuranceLevel(currentLevel: nil, nextLevel: nil, currentAuthenticationMethods: [])
        }
        let claims = try await verifiedClaims(of: token).claims
        let current = claims[assurance.levelClaim]?.string
        let methods = assurance.methodsClaim.flatMap { claims[$0]?.array } ?? []
        let entries = methods.compactMap { entry -> AssuranceLevel.Method? in
            if let name = entry.string { return AssuranceLevel.Method(method: name, timestamp: nil) }
            guard let name = entry.object?["method"]?.string else { return nil }
            return AssuranceLevel.Method(method: name, timestamp: entry.object?["timestamp"]?.double)
        }
        let factors = assurance.factors.flatMap { session?.user?.attributes.value(at: $0)?.array } ?? []
        let verified = factors.contains { $0.value(at: assurance.factorStatus)?.string == assurance.verifiedStatus }
        return AssuranceLevel(
            currentLevel: current, nextLevel: verified ? assurance.elevatedLevel : current,
            currentAuthenticationMethods: entries)
    }

    /// The access-token JWKS when it has a key with this `kid` (fetched once with the descriptor's `keys`
    /// request, refetched within ``JWKSCache``'s bounds); `nil` when it has none, so the caller asks the server.
    private func claimsKeys(_ spec: AccessTokenClaimsSpec, containing keyID: String) async throws(AuthError)
        -> JSONWebKeySet?
    {
        let cache: KeySetCache<JSONWebKeySet>
        if let claimsKeyCache {
            cache = claimsKeyCache
        } else {
            guard let request = provider.requests[spec.keysRequest] else {
                throw failure(.invalidConfiguration, "The descriptor has no request named '\(spec.keysRequest)'.")
            }
            let text = try TemplateRenderer.text(request.url, in: try await scope(rendering: [request.url]))
            guard let url = URL(string: text) else {
                throw failure(.invalidConfiguration, "The access-token JWKS URL is not a URL.")
            }
            let name = spec.keysRequest
            cache = KeySetCache(
                url: url,
                policy: .init(
                    minimumRefetchInterval: JWKSCache.defaultMinimumRefetchInterval,
                    unknownKeyRefetchBudget: JWKSCache.defaultUnknownKeyRefetchBudget,
                    maximumAge: JWKSCache.defaultMaximumAge),
                now: options.now, hasKey: { $0.containsKey(withID: $1) },
                unknownKeyError: { _ in AuthError(.invalidToken, "No published key has the access token's kid.") },
                download: { [weak self] () async -> Result<JSONWebKeySet, AuthError> in
                    guard let self else { return .failure(AuthError(.invalidConfiguration, "The client is gone.")) }
                    return await self.downloadClaimsKeys(name)
                })
            claimsKeyCache = cache
        }
        let keys = try await cache.keySet()
        if keys.containsKey(withID: keyID) { return keys }
        return try? await cache.keySet(containingKeyID: keyID)
    }

    /// Sends the descriptor's `keys` request and decodes its JWKS.
    private func downloadClaimsKeys(_ request: String) async -> Result<JSONWebKeySet, AuthError> {
        do throws(AuthError) {
            let (_, _, response) = try await send(request)
            return .success(try JSONWebKeySet(data: response.body))
        } catch {
            return .failure(error)
        }
    }
}
