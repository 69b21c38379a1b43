import Foundation

extension AuthClient {
    /// Validates a new session's ID token when the descriptor asks for it: the signature against the
    /// issuer's JWKS (fetched once, refetched once on an unknown `kid`), then the claims, the nonce and
    /// `at_hash`. A sign-in that sent a nonce must come back with an ID token.
    /// - Parameters:
    ///   - session: The session from the token response.
    ///   - nonce: The nonce sent in the authorization request, if any.
    /// - Returns: The verified claims, or `nil` when the descriptor validates no ID token or none came.
    /// - Throws: `invalid_id_token` when the token is missing or fails a check.
    @discardableResult
    func validateNewIDToken(_ session: Session, nonce: String?) async throws(AuthError) -> IDTokenClaims? {
        guard provider.tokens.validatesIDToken else { return nil }
        guard let idToken = session.idToken else {
            guard nonce == nil else {
                throw failure(.invalidIDToken, "The token response has no ID token, though the sign-in asked for one.")
            }
            return nil
        }
        let validator = try await idTokenValidator()
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
    private func idTokenValidator() async throws(AuthError) -> IDTokenValidator {
        let scope = try await scope()
        var issuer: String?
        if let template = provider.tokens.issuer {
            issuer = try TemplateRenderer.text(template, in: scope)
        } else if case .openID(let template) = provider.discovery {
            issuer = try TemplateRenderer.text(template, in: scope)
        }
        guard var issuer = issuer ?? discovery?.values["issuer"] else {
            throw failure(.invalidConfiguration, "The descriptor validates ID tokens but names no issuer.")
        }
        // Multi-tenant: the discovery document's `{tenantid}` issuer, filled from each token's `tid`.
        if provider.tokens.issuerValidation == .tenantPlaceholder, let named = discovery?.values["issuer"],
            named.contains(IssuerValidation.tenantPlaceholderText), acceptsDiscoveredIssuer(named, requested: issuer)
        {
            issuer = named
        }
        let clientParameter = provider.flows.authorizationCode?.authorizeQuery.first { $0.name == "client_id" }
        guard let clientParameter,
            let clientID = try TemplateRenderer.render(clientParameter.value, in: scope)?.scalarText
        else {
            throw failure(.invalidConfiguration, "The descriptor validates ID tokens but sends no client_id.")
        }
        let leeway = options.refreshLeeway.components.seconds
        var validator = IDTokenValidator(
            issuer: issuer, clientID: clientID, leeway: TimeInterval(min(max(leeway, 0), 600)), now: options.now)
        validator.issuerValidation = provider.tokens.issuerValidation
        return validator
    }

    /// The JWKS cache for the descriptor's `jwks` URL, created on first use.
    private func jwks() async throws(AuthError) -> JWKSCache {
        if let jwksCache { return jwksCache }
        guard let template = provider.tokens.jwksURL else {
            throw failure(.invalidConfiguration, "The descriptor validates ID tokens but names no JWKS URL.")
        }
        let text = try TemplateRenderer.text(template, in: try await scope())
        guard let url = URL(string: text), RedirectURI.isAllowedEndpoint(url) else {
            throw failure(.invalidConfiguration, "The JWKS URL is not an https URL.")
        }
        let cache = JWKSCache(url: url, transport: options.transport, now: options.now)
        jwksCache = cache
        return cache
    }
}

extension AuthClient {
    /// Whether a discovery document's `issuer` fits the configured issuer: equal, or (with the
    /// descriptor's `tenant_placeholder` issuer validation) its `{tenantid}` form.
    nonisolated func acceptsDiscoveredIssuer(_ named: String, requested: String) -> Bool {
        IDTokenValidator.acceptsDiscoveredIssuer(
            named, requested: requested, validation: provider.tokens.issuerValidation)
    }
}
