import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

extension AuthClient {
    /// Prepares a browser sign-in: makes the PKCE verifier, state and nonce, remembers them in the store
    /// (so a callback after a relaunch completes), and builds the authorization URL.
    /// - Parameters:
    ///   - redirectURI: The redirect URI (default: the configured one, else the first redirect URI the
    ///     discovered client configuration lists, when the descriptor names such a list).
    ///   - scopes: The scopes (default: the scopes the discovered client configuration allows, when the
    ///     descriptor names such a list, else the flow's default scopes).
    ///   - prompt: OpenID `prompt` (`login`, `consent`, ...).
    ///   - loginHint: OpenID `login_hint`.
    ///   - maxAge: OpenID `max_age`, in seconds.
    ///   - additionalParameters: More query parameters; they may not replace one the request already has. One
    ///     named like a variable the authorize query declares (Supabase's `{provider}`) fills that variable.
    /// - Returns: The request; open its URL in a browser.
    /// - Throws: `invalid_configuration` without an authorization code flow, without the client secret its code
    ///   exchange authenticates with (`basic` or `post`; before anything is sent), a redirect URI (configured or
    ///   listed by the provider), or with a clashing parameter; `redirect_mismatch` for a redirect URI the
    ///   provider does not list; discovery errors (`confidential_client_in_mobile`, ...).
    public func prepareAuthorization(
        redirectURI: URL? = nil, scopes: [String]? = nil, prompt: String? = nil, loginHint: String? = nil,
        maxAge: Int? = nil, additionalParameters: [String: String] = [:]
    ) async throws(AuthError) -> AuthorizationRequest {
        try await prepare(
            redirectURI: redirectURI, scopes: scopes, prompt: prompt, loginHint: loginHint, maxAge: maxAge,
            additionalParameters: additionalParameters, state: nil)
    }

    /// ``prepareAuthorization(redirectURI:scopes:prompt:loginHint:maxAge:additionalParameters:)`` with a
    /// state made in advance (a loopback server must know it before the URL exists).
    func prepare(
        redirectURI: URL?, scopes: [String]?, prompt: String?, loginHint: String?, maxAge: Int?,
        additionalParameters: [String: String], state presetState: String?
    ) async throws(AuthError) -> AuthorizationRequest {
        guard let flow = provider.flows.authorizationCode else {
            throw failure(.invalidConfiguration, "This provider has no browser sign-in.")
        }
        try ClientSecretCheck.checkFlow(
            [flow.exchangeRequest], flow: "Browser sign-in", provider: provider, configuration: configuration)
        let given = redirectURI ?? configuration.redirectURI
        if let given { try ConfigurationValidator.checkRedirect(given, provider: provider) }
        let required = "A redirect URI is required for browser sign-in."
        // Without a configured redirect URI, only a provider that lists the allowed ones can supply it.
        if given == nil, provider.clientPolicy.allowedRedirectURIsPointer == nil {
            throw failure(.invalidConfiguration, required)
        }
        _ = try await discover()
        guard let redirect = given ?? providerListedRedirectURIs().first else {
            throw failure(.invalidConfiguration, required + " The provider lists no allowed redirect URI.")
        }
        // A listed redirect URI passes the same rules as a configured one (kinds, https, loopback).
        if given == nil { try ConfigurationValidator.checkRedirect(redirect, provider: provider) }
        try checkRedirectAllowedByProvider(redirect)
        let verifier = PKCE.makeVerifier(using: options.random)
        let state = presetState ?? RandomToken.make(using: options.random)
        let nonce = flow.usesNonce ? RandomToken.make(using: options.random) : nil
        var chosenScopes = scopes ?? providerListedScopes() ?? flow.defaultScopes
        // As Lokksmith does for every OpenID client: scopes an app passes without `openid` still get it when
        // the provider's own defaults request it to issue the ID token the client validates.
        if provider.tokens.validatesIDToken, flow.defaultScopes.contains("openid"), !chosenScopes.contains("openid") {
            chosenScopes.insert("openid", at: 0)
        }
        var variables: [String: JSON?] = [
            "code_challenge": .string(PKCE.challenge(for: verifier)), "code_challenge_method": .string(PKCE.method),
            "state": .string(state), "nonce": nonce.map(JSON.string), "redirect_uri": .string(redirect.absoluteString),
            "scope": chosenScopes.isEmpty ? nil : .string(chosenScopes.joined(separator: flow.scopeSeparator)),
            "prompt": prompt.map(JSON.string), "login_hint": loginHint.map(JSON.string),
            "max_age": maxAge.map { .number(Double($0)) },
        ]
        // An additional parameter named like a variable the authorize query declares fills that variable
        // (Supabase's `provider={provider}`), unless the sign-in or the configuration already owns the name.
        let declared = Set(
            flow.authorizeQuery.flatMap { parameter -> [String] in
                if case .string(let template) = parameter.value { return template.variables }
                return []
            })
        let owned = try await self.scope()
        var filled: Set<String> = []
        for (name, value) in additionalParameters
        where declared.contains(name) && !variables.keys.contains(name) && owned[name] == nil {
            variables[name] = .string(value)
            filled.insert(name)
        }
        let scope = try await self.scope(
            variables, rendering: [flow.authorizeURL] + ProviderSpec.templates(in: flow.authorizeQuery))
        var query = try TemplateRenderer.pairs(flow.authorizeQuery, in: scope)
        let standard = ["prompt": prompt, "login_hint": loginHint, "max_age": maxAge.map(String.init)]
        for name in standard.keys.sorted() {
            if let value = standard[name] ?? nil, !query.contains(where: { $0.name == name }) {
                query.append((name, value))
            }
        }
        for name in additionalParameters.keys.sorted() where !filled.contains(name) {
            guard !query.contains(where: { $0.name == name }) else {
                throw failure(.invalidConfiguration, "The parameter '\(name)' is set by the sign-in itself.")
            }
            query.append((name, additionalParameters[name] ?? ""))
        }
        let proofKey = try newProofKey()
        // With DPoP, `dpop_jkt` binds the code to the sign-in's key, pushed or not (RFC 9449 §10; Salesforce
        // requires it); a push also carries a proof of that key (§10.1).
        if let proofKey, !query.contains(where: { $0.name == "dpop_jkt" }) {
            query.append(("dpop_jkt", proofKey.thumbprint))
        }
        var url: URL
        var expiresAt: Date?
        if let endpoint = try pushedAuthorizationEndpoint(in: scope) {
            // RFC 9126: the parameters go to the server, the browser gets only `client_id` and `request_uri`.
            let pushed = PushedAuthorization(
                endpoint: endpoint, parameters: query,
                clientAuthentication: provider.requests[flow.exchangeRequest]?.clientAuthentication ?? .none,
                authorizeURL: flow.authorizeURL, scope: scope, proofKey: proofKey)
            (url, expiresAt) = try await push(pushed)
            rememberPushed(pushed, state: state)
        } else {
            url = try builder.endpoint(flow.authorizeURL, query: query, scope: scope)
        }
        var pending = PendingFlow(
            state: state, codeVerifier: verifier, nonce: nonce, redirectURI: redirect, createdAt: now(),
            maxAge: query.first { $0.name == "max_age" }.flatMap { Int($0.value) }.map { max($0, 0) })
        pending.dpopKey = proofKey?.storedForm
        try await updatePending { [pending] flows in flows.append(pending) }
        return AuthorizationRequest(url: url, redirectURI: redirect, state: state, nonce: nonce, expiresAt: expiresAt)
    }

    /// The redirect URIs the discovered client configuration lists (``ClientPolicy/allowedRedirectURIsPointer``),
    /// in its order; empty when the descriptor names no list or discovery has not run. The first one is the
    /// default redirect URI of a client configured without one (as Base IdP's SDKs pick it).
    func providerListedRedirectURIs() -> [URL] {
        guard let pointer = provider.clientPolicy.allowedRedirectURIsPointer,
            let listed = discovery?.document.value(at: pointer)?.array
        else { return [] }
        return listed.compactMap { $0.string.flatMap(URL.init(string:)) }
    }

    /// The scopes the discovered client configuration allows (``ClientPolicy/allowedScopesPointer``), or `nil`
    /// when the descriptor names no list or the document has no non-empty one.
    private func providerListedScopes() -> [String]? {
        guard let pointer = provider.clientPolicy.allowedScopesPointer,
            let listed = discovery?.document.value(at: pointer)?.array?.compactMap(\.string).filter({ !$0.isEmpty }),
            !listed.isEmpty
        else { return nil }
        return listed
    }

    private func checkRedirectAllowedByProvider(_ redirect: URL) throws(AuthError) {
        guard let pointer = provider.clientPolicy.allowedRedirectURIsPointer,
            let allowed = discovery?.document.value(at: pointer)?.array?.compactMap(\.string)
        else { return }
        guard allowed.contains(redirect.absoluteString) else {
            throw AuthError(
                .redirectMismatch, "The provider does not allow the redirect URI \(redirect.absoluteString).",
                provider: provider.name)
        }
    }
}
