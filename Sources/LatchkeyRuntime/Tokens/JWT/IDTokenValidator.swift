import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// Validates ID tokens as OpenID Connect Core §3.1.3.7 describes, for a public client.
///
/// The signature is checked first, against the issuer's JWKS key selected by `kid`, so that nothing
/// from an unverified token is trusted or quoted; then the claims: `iss` exactly, `aud` and `azp`,
/// `exp`, `iat`, `nbf` (each with ``leeway``), `nonce`, `auth_time` against ``maxAge``, and `at_hash`
/// when an access token is given. Every failure is an ``AuthError`` `invalid_id_token` whose message
/// never contains the token.
public struct IDTokenValidator: Sendable {
    /// The algorithms accepted unless configured otherwise: RS256, PS256, ES256 and EdDSA.
    public static let defaultAlgorithms: Set<SignatureAlgorithm> = [.rs256, .ps256, .es256, .edDSA]
    /// The default clock skew tolerance: 60 seconds.
    public static let defaultLeeway: TimeInterval = 60

    /// The issuer identifier `iss` must equal exactly.
    public var issuer: String
    /// The client ID: it must be among the audiences, and be `azp` when `azp` is present.
    public var clientID: String
    /// The signature algorithms accepted. `none` and HMAC can never be accepted.
    public var allowedAlgorithms: Set<SignatureAlgorithm>
    /// The clock skew tolerated on `exp`, `iat`, `nbf` and `auth_time`, in seconds.
    public var leeway: TimeInterval
    /// The `max_age` sent in the authentication request, in seconds: when set, `auth_time` is required
    /// and must be at most this old.
    public var maxAge: TimeInterval?
    /// Whether `auth_time` is required even without ``maxAge`` (the request asked for it as essential).
    public var requiresAuthTime: Bool
    /// The audiences other than ``clientID`` that are trusted, or `nil` not to restrict them. With
    /// several audiences, `azp` must be ``clientID`` in any case.
    public var trustedAudiences: Set<String>?
    /// The clock.
    public var now: @Sendable () -> Date
    /// How `iss` is compared with ``issuer``: exactly (the default), or with the token's `tid` claim
    /// substituted for the issuer's `{tenantid}` placeholder first (multi-tenant Microsoft Entra ID).
    public var issuerValidation: IssuerValidation = .exact

    /// Creates a validator.
    /// - Parameters:
    ///   - issuer: The exact issuer identifier.
    ///   - clientID: The client ID (the expected audience).
    ///   - allowedAlgorithms: The accepted algorithms (default ``defaultAlgorithms``).
    ///   - leeway: The clock skew tolerance in seconds (default 60; must be finite and not negative).
    ///   - maxAge: The `max_age` of the authentication request, if one was sent.
    ///   - requiresAuthTime: Whether `auth_time` is required even without `maxAge`.
    ///   - trustedAudiences: The other audiences trusted, or `nil` not to restrict them.
    ///   - now: The clock.
    public init(
        issuer: String, clientID: String,
        allowedAlgorithms: Set<SignatureAlgorithm> = IDTokenValidator.defaultAlgorithms,
        leeway: TimeInterval = IDTokenValidator.defaultLeeway, maxAge: TimeInterval? = nil,
        requiresAuthTime: Bool = false, trustedAudiences: Set<String>? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        precondition(leeway.isFinite && leeway >= 0, "leeway must be finite and not negative")
        self.issuer = issuer
        self.clientID = clientID
        self.allowedAlgorithms = allowedAlgorithms
        self.leeway = leeway
        self.maxAge = maxAge
        self.requiresAuthTime = requiresAuthTime
        self.trustedAudiences = trustedAudiences
        self.now = now
    }

    /// Validates an ID token from an authentication response.
    /// - Parameters:
    ///   - idToken: The compact ID token.
    ///   - keys: The issuer's keys.
    ///   - nonce: The `nonce` sent in the authentication request: the token must carry the same one.
    ///     `nil` when none was sent (the token's `nonce`, if any, is then not checked).
    ///   - accessToken: The access token issued with it, to check `at_hash` when the token has one.
    /// - Returns: The verified claims.
    /// - Throws: ``AuthError`` `invalid_id_token` when the token fails any check.
    public func validate(
        _ idToken: String, keys: JSONWebKeySet, nonce: String?, accessToken: String? = nil
    ) throws(AuthError) -> IDTokenClaims {
        let token = try JWSToken(compact: idToken, failureCode: .invalidIDToken)
        return try validate(token, keys: keys, nonce: .expected(nonce), accessToken: accessToken, checksMaxAge: true)
    }

    /// Validates an ID token from an authentication response, with keys from a cache (fetched on first
    /// use, refetched once when the token's `kid` is unknown).
    /// - Parameters:
    ///   - idToken: The compact ID token.
    ///   - cache: The issuer's JWKS cache.
    ///   - nonce: The `nonce` sent in the authentication request, or `nil` when none was sent.
    ///   - accessToken: The access token issued with it, to check `at_hash` when the token has one.
    /// - Returns: The verified claims.
    /// - Throws: ``AuthError`` `invalid_id_token` when the token fails any check; the cache's errors when
    ///   the JWKS cannot be fetched.
    public func validate(
        _ idToken: String, keys cache: JWKSCache, nonce: String?, accessToken: String? = nil
    ) async throws(AuthError) -> IDTokenClaims {
        let token = try JWSToken(compact: idToken, failureCode: .invalidIDToken)
        let keys = try await keySet(for: token, from: cache)
        return try validate(token, keys: keys, nonce: .expected(nonce), accessToken: accessToken, checksMaxAge: true)
    }

    /// The key set for a token: refuses a bad `alg` before any fetch, then asks the cache. For a token
    /// without `kid` that no cached key verifies, the cache may fetch the set again (a rotation).
    func keySet(for token: JWSToken, from cache: JWKSCache) async throws(AuthError) -> JSONWebKeySet {
        let algorithm = try token.signatureAlgorithm(allowed: allowedAlgorithms)
        if let keyID = token.header.keyID {
            return try await cache.keySet(containingKeyID: keyID)
        }
        let keys = try await cache.keySet()
        if (try? token.verifySignature(keys: keys, allowedAlgorithms: [algorithm])) != nil { return keys }
        return try await cache.keySetReplacing(failed: keys) ?? keys
    }

    /// What the `nonce` claim must be.
    enum NonceRule {
        /// Equal to this value when it is not `nil`; anything when it is.
        case expected(String?)
        /// Absent, or equal to the original token's (a refreshed token).
        case absentOrEqual(String?)
    }

    /// Verifies the signature, then the claims.
    func validate(
        _ token: JWSToken, keys: JSONWebKeySet, nonce: NonceRule, accessToken: String?, checksMaxAge: Bool
    ) throws(AuthError) -> IDTokenClaims {
        let failureCode = AuthError.Code.invalidIDToken
        if let type = token.header.type, Self.foreignTypes.contains(type.lowercased()) {
            throw AuthError(failureCode, "the token's typ \(MessageText.quoted(type)) is not an ID token type")
        }
        let algorithm = try token.signatureAlgorithm(allowed: allowedAlgorithms)
        try token.verifySignature(keys: keys, allowedAlgorithms: [algorithm])
        let claims = try IDTokenClaims(raw: token.payload, failureCode: failureCode)
        try checkIssuerAndAudience(claims)
        try checkTimes(claims, checksMaxAge: checksMaxAge)
        try checkNonce(claims, rule: nonce)
        if let atHash = claims.atHash, let accessToken {
            try AccessTokenHash.check(atHash, accessToken: accessToken, algorithm: algorithm, failureCode: failureCode)
        }
        return claims
    }

    /// `typ` values of other JWTs that must not pass for an ID token (access tokens, logout tokens,
    /// security events), with and without the `application/` prefix.
    static let foreignTypes: Set<String> = {
        let types = ["at+jwt", "logout+jwt", "secevent+jwt"]
        return Set(types + types.map { "application/" + $0 })
    }()
}
