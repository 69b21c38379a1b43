import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

extension AuthClient {
    /// Validates a new session's ID token when the descriptor asks for it: the signature against the
    /// issuer's JWKS (fetched once, refetched on an unknown `kid` within ``JWKSCache``'s bounds) with an
    /// algorithm the discovery document advertises, then the claims, the nonce, `auth_time` against
    /// `max_age`, and `at_hash`. A sign-in that sent a nonce or a `max_age` must come back with an ID token.
    /// - Parameters:
    ///   - session: The session from the token response.
    ///   - nonce: The nonce sent in the authorization request, if any.
    ///   - maxAge: The `max_age` sent in the authorization request, in seconds, if any.
    /// - Returns: The verified claims, or `nil` when the descriptor validates no ID token or none came.
    /// - Throws: `invalid_id_token` when the token is missing or fails a check.
    @discardableResult
    func validateNewIDToken(_ session: Session, nonce: String?, maxAge: Int? = nil) async throws(AuthError)
        -> IDTokenClaims?
    {
        guard provider.tokens.validatesIDToken else { return nil }
        guard let idToken = session.idToken else {
            guard nonce == nil, maxAge == nil else {
                throw failure(.invalidIDToken, "The token response has no ID token, though the sign-in asked for one.")
            }
            return nil
        }
        var validator = try await idTokenValidator()
        validator.maxAge = maxAge.map(TimeInterval.init)
        return try await validator.validate(idToken, keys: jwks(), nonce: nonce, accessToken: session.accessToken)
    }

    /// Validates the ID token of a refreshed session: a new one must keep `iss`, `sub` and `aud`.
    /// - Parameters:
    ///   - fresh: The refreshed session (its ID token may be the previous one, carried over).
    ///   - previous: The session that was refreshed.
    /// - Throws: `invalid_id_token` when the new token fails a check or names another user.
    func validateRefreshedIDToken(_ fresh: Session, previous: Session) async throws(AuthError) {
        guard provider.tokens.validatesIDToken, let newToken = fresh.idToken, newToken != previous.idToken else {
            return
        }
        let validator = try await idTokenValidator()
        guard let previousToken = previous.idToken,
            let previousClaims = try? IDTokenClaims(raw: JWTPayload.claims(of: previousToken) ?? [:])
        else {
            _ = try await validator.validate(newToken, keys: jwks(), nonce: nil, accessToken: fresh.accessToken)
            return
        }
        _ = try await validator.validateRefreshed(
            newToken: newToken, previousClaims: previousClaims, keys: jwks(), accessToken: fresh.accessToken)
    }

    /// The validator for this provider: the issuer from the descriptor (or discovery) and the client id
    /// the authorization request sends.
    func idTokenValidator() async throws(AuthError) -> IDTokenValidator {
        let scope = try await scope(rendering: [provider.tokens.issuer].compactMap { $0 })
        var issuer: String?
        if let template = provider.tokens.issuer {
            issuer = try TemplateRenderer.text(template, in: scope)
        } else if case .openID(let template, _) = provider.discovery {
            issuer = try TemplateRenderer.text(template, in: scope)
        }
        guard var issuer = issuer ?? discovery?.values["issuer"] else {
            throw failure(.invalidConfiguration, "The descriptor validates ID tokens but names no issuer.")
        }
        // Multi-tenant: the discovery document's `{tenantid}` issuer, filled from each token's `tid`.
        if provider.tokens.issuerValidation == .tenantPlaceholder, let named = discovery?.values["issuer"],
            named.range(of: IssuerValidation.tenantPlaceholderText) != nil,
            acceptsDiscoveredIssuer(named, requested: issuer)
        {
            issuer = named
        }
        let clientParameter = provider.flows.authorizationCode?.authorizeQuery.first { $0.name == "client_id" }
        guard let clientParameter,
            let clientID = try TemplateRenderer.render(clientParameter.value, in: scope)?.scalarText
        else {
            throw failure(.invalidConfiguration, "The descriptor validates ID tokens but sends no client_id.")
        }
        let leeway = options.refreshLeeway.nanoseconds / 1_000_000_000
        var validator = IDTokenValidator(
            issuer: issuer, clientID: clientID, leeway: TimeInterval(min(max(leeway, 0), 600)), now: options.now)
        validator.issuerValidation = provider.tokens.issuerValidation
        // OpenID Connect Discovery: the algorithms the provider signs ID tokens with. A token signed with
        // any other is refused, whatever Latchkey could verify.
        if let advertised = discovery?.document["id_token_signing_alg_values_supported"]?.array {
            validator.allowedAlgorithms = Set(
                advertised.compactMap { $0.string.flatMap { SignatureAlgorithm(rawValue: $0) } })
        }
        return validator
    }

    /// The JWKS cache for the descriptor's `jwks` URL, created on first use.
    func jwks() async throws(AuthError) -> JWKSCache {
        if let jwksCache { return jwksCache }
        guard let template = provider.tokens.jwksURL else {
            throw failure(.invalidConfiguration, "The descriptor validates ID tokens but names no JWKS URL.")
        }
        let text = try TemplateRenderer.text(template, in: try await scope(rendering: [template]))
        guard let url = URL(string: text), RedirectURI.isAllowedEndpoint(url) else {
            throw failure(.invalidConfiguration, "The JWKS URL is not an https URL.")
        }
        // Through the client's pipeline: logged, and checked like every request.
        let cache = JWKSCache(
            url: url, transport: PipelineTransport(pipeline: pipeline, context: requestContext()), now: options.now)
        jwksCache = cache
        return cache
    }
}

extension AuthClient {
    /// A user document checked against the verified ID token of the same sign-in: where an ID token was
    /// verified, identity is its `sub`, and a user document naming another subject must not be used
    /// (OpenID Connect Core §5.3.2).
    /// - Parameters:
    ///   - user: The user from the user-info endpoint or the token response, if any.
    ///   - claims: The verified claims, or `nil` when no ID token was verified.
    /// - Returns: `user`, unchanged.
    /// - Throws: `invalid_response` when the user's identifier is not the token's `sub`.
    func user(_ user: User?, boundTo claims: IDTokenClaims?) throws(AuthError) -> User? {
        guard let claims, let user else { return user }
        guard user.id == claims.sub else {
            throw failure(.invalidResponse, "The user document names another subject than the verified ID token.")
        }
        return user
    }

    /// The `sub` of the session's ID token when the descriptor validates ID tokens (it was verified before
    /// the session was installed), else `nil`.
    var verifiedSubject: String? {
        guard provider.tokens.validatesIDToken, let idToken = session?.idToken else { return nil }
        return JWTPayload.claims(of: idToken)?["sub"]?.string
    }
}
