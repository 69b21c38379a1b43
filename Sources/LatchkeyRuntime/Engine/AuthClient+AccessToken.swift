import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

extension AuthClient {
    /// The clock skew allowed when an access token's `exp`, `nbf` and `iat` are checked, in seconds: 30, the
    /// default of Base IdP's SDKs (`maxClockSkewSeconds ?? 30` in base-idp-typescript's `src/paseto.ts`), whose
    /// PASETO access tokens are the ones verified offline.
    static var accessTokenClockSkew: TimeInterval { 30 }

    /// Verifies a new session's access token offline when the descriptor says it is verifiable
    /// (``TokenSpec/Format/pasetoV4Public``); does nothing for opaque and JWT access tokens.
    ///
    /// Call it after a code exchange and after each refresh, before the session is stored: the token's
    /// signature is checked against the key set at ``TokenSpec/accessTokenKeysURL`` (fetched once, refetched
    /// once for an unknown `kid`), then the descriptor's footer members, `exp`, `nbf` and `iat` (with
    /// ``accessTokenClockSkew``), `iss`, `aud`, the required claims and claim values. A `token_use` claim,
    /// when present, must be `access`. With ``TokenSpec/userFromAccessToken`` the session's user is then read
    /// from the verified claims.
    /// - Parameters:
    ///   - session: The session from the token response; its user is replaced by the token's principal when
    ///     the descriptor says so.
    ///   - previous: The session that was refreshed, if any: the new token must name the same `sub` (and the
    ///     same values at ``TokenSpec/userDocumentMustMatch``).
    /// - Returns: The verified claims, or `nil` when the access token is not verifiable.
    /// - Throws: `invalid_token` (or the code the descriptor maps the failure to) when the token fails a
    ///   check; `invalid_configuration` when the descriptor names no key set or issuer; the key set's fetch
    ///   errors.
    @discardableResult
    func validateNewAccessToken(_ session: inout Session, previous: Session? = nil) async throws(AuthError)
        -> [String: JSON]?
    {
        guard provider.tokens.accessTokenFormat.behaviour.verification != nil else { return nil }
        let claims = try await verifiedAccessTokenClaims(session.accessToken)
        if let previous, let earlier = storedAccessTokenClaims(previous) {
            for pointer in ["/sub"] + provider.tokens.userDocumentMustMatch {
                guard let before = JSON.object(earlier).value(at: pointer) else { continue }
                guard JSON.object(claims).value(at: pointer) == before else {
                    throw provider.errors.mappingVerificationFailure(
                        failure(
                            .invalidToken, "The refreshed access token names another principal than the session's."
                        ).because(.invalidClaims))
                }
            }
        }
        if provider.tokens.userFromAccessToken {
            session.user = try decoder.user(from: .object(claims))
        }
        return claims
    }

    /// Verifies a PASETO `v4.public` access token of this provider and returns its claims.
    /// - Parameter token: The access token.
    /// - Returns: The verified, validated claims.
    /// - Throws: `invalid_token` when the token fails a check (messages never contain it), or the code the
    ///   descriptor's `errors.verification` maps the failure's ``TokenVerificationFailure`` to;
    ///   `invalid_configuration` when the provider's access tokens are not PASETO or the descriptor names no
    ///   key set or issuer; the key set's fetch errors.
    func verifiedAccessTokenClaims(_ token: String) async throws(AuthError) -> [String: JSON] {
        do throws(AuthError) {
            switch provider.tokens.accessTokenFormat.behaviour.verification {
            case .pasetoV4Public?: break
            case nil:
                throw failure(.invalidConfiguration, "This provider's access tokens are not PASETO v4.public tokens.")
            }
            guard let keyID = PasetoV4Public.keyID(of: token) else {
                throw failure(.invalidToken, "The access token is not a v4.public token with a kid in its footer.")
                    .because(.malformed)
            }
            let validator = try await accessTokenValidator()
            let keys = try await accessTokenKeyCache().keySet(containingKeyID: keyID)
            let verified = try keys.verify(token, validator: validator, now: now())
            try AccessTokenRules(tokens: provider.tokens).check(verified)
            return verified.claims
        } catch {
            var labelled = provider.errors.mappingVerificationFailure(error)
            labelled.provider = labelled.provider ?? provider.name
            throw labelled
        }
    }

    /// Checks a user document against the verified access token of the same session: at every pointer of
    /// ``TokenSpec/userDocumentMustMatch`` both must carry the same value, so that a user document can never
    /// name another principal than the one the provider signed for.
    /// - Parameters:
    ///   - document: The user document.
    ///   - claims: The verified access token's claims, or `nil` when the access token is not verifiable.
    /// - Throws: `invalid_response` when a value differs or is missing on either side.
    func checkUserDocument(_ document: JSON?, against claims: [String: JSON]?) throws(AuthError) {
        guard let claims else { return }
        for pointer in provider.tokens.userDocumentMustMatch {
            let signed = JSON.object(claims).value(at: pointer)
            guard let signed, !signed.isNull, document?.value(at: pointer) == signed else {
                throw failure(
                    .invalidResponse,
                    "The user document does not carry the verified access token's value at \(pointer).")
            }
        }
    }

    /// The claim rules: the descriptor's issuer (or the OpenID issuer, or the discovered `issuer`), its
    /// audience (rendered over the inputs), and ``accessTokenClockSkew``.
    private func accessTokenValidator() async throws(AuthError) -> PasetoClaimsValidator {
        let scope = try await scope()
        var issuer: String?
        if let template = provider.tokens.issuer {
            issuer = try TemplateRenderer.text(template, in: scope)
        } else if case .openID(let template, _) = provider.discovery {
            issuer = try TemplateRenderer.text(template, in: scope)
        }
        guard let issuer = issuer ?? discovery?.values["issuer"], !issuer.isEmpty else {
            throw failure(.invalidConfiguration, "The descriptor verifies access tokens but names no issuer.")
        }
        var audience: String?
        if let template = provider.tokens.audience {
            audience = try TemplateRenderer.text(template, in: scope)
            guard audience?.isEmpty == false else {
                throw failure(.invalidConfiguration, "The access tokens' audience is empty.")
            }
        }
        return PasetoClaimsValidator(issuer: issuer, audience: audience, skew: Self.accessTokenClockSkew)
    }

    /// The key cache for the descriptor's `accessTokenKeys` URL, created on first use and kept with the
    /// discovery result (the URL usually comes from it).
    func accessTokenKeyCache() async throws(AuthError) -> AccessTokenKeyCache {
        if let cache = discovery?.accessTokenKeys { return cache }
        guard let template = provider.tokens.accessTokenKeysURL else {
            throw failure(
                .invalidConfiguration, "The descriptor verifies access tokens but names no accessTokenKeys URL.")
        }
        let text = try TemplateRenderer.text(template, in: try await scope(rendering: [template]))
        guard let url = URL(string: text), RedirectURI.isAllowedEndpoint(url) else {
            throw failure(.invalidConfiguration, "The access-token key set URL is not an https URL.")
        }
        if let cache = discovery?.accessTokenKeys { return cache }
        let cache = AccessTokenKeyCache.accessTokenKeys(
            url: url, transport: PipelineTransport(pipeline: pipeline, context: requestContext()),
            userAgent: options.userAgent,
            defaultImplicitAssertion: Array((provider.tokens.implicitAssertion ?? "").utf8), now: options.now)
        if discovery == nil, provider.discovery == nil {
            // Without discovery there is no result to hang the cache on; an empty one changes nothing else.
            discovery = DiscoveryResult(values: [:], document: .object([:]))
        }
        discovery?.accessTokenKeys = cache
        return cache
    }

    /// The claims of a stored session's access token, read **without** verification (it was verified when it
    /// was stored); `nil` for a format the client does not verify, or a token it cannot read.
    func storedAccessTokenClaims(_ session: Session) -> [String: JSON]? {
        switch provider.tokens.accessTokenFormat.behaviour.verification {
        case .pasetoV4Public?: Self.unverifiedPasetoClaims(session.accessToken)
        case nil: nil
        }
    }

    /// The claims of a PASETO `v4.public` token read **without** verification (for comparing a refreshed
    /// token with the session's earlier one, which was verified when it was stored).
    static func unverifiedPasetoClaims(_ token: String) -> [String: JSON]? {
        guard let parts = try? PasetoTokenParts(token), PasetoJSONLimits.payload.allows(parts.message) else {
            return nil
        }
        return JSON(data: Data(parts.message))?.object
    }
}
