import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// A successful discovery: the variables and the document they came from.
struct DiscoveryResult: Sendable {
    /// `discovered.NAME` values, by NAME.
    var values: [String: String]
    /// The document.
    var document: JSON
    /// The access-token key set fetched from a discovered URL, created on first use (see
    /// `AuthClient+AccessToken.swift`); it lives as long as the discovery it depends on.
    var accessTokenKeys: AccessTokenKeyCache? = nil
    /// When the result stops being used (and discovery runs again); `nil` for never.
    var expiresAt: Date? = nil
    /// Where RFC 8414 metadata may fill in members the OpenID document lacks, until it has been read
    /// once (see `AuthClient+DiscoverySupplement.swift`); `nil` when there is nothing left to read.
    var supplement: DiscoverySupplement? = nil

    /// Whether the result may still be used at a time.
    func isFresh(at date: Date) -> Bool { expiresAt.map { date < $0 } ?? true }
}

extension AuthClient {
    /// Discovers the provider's endpoints (once; later calls use the cached result while it is fresh).
    ///
    /// OpenID discovery reads `{issuer}/.well-known/openid-configuration`, falling back to RFC 8414's
    /// `/.well-known/oauth-authorization-server` only when there is no OpenID document, or only the
    /// descriptor's explicit document URL (`discovery.url`, e.g. `OidcClient`'s `discoveryURL`) when it has a
    /// value; either way the document's `issuer` must equal the issuer exactly. RFC 8414 metadata is read beside an OpenID document only
    /// later, once a request about to be sent needs a member the OpenID document lacks (a revocation
    /// endpoint, say), so the values returned here are the OpenID document's.
    /// The document is also kept in the session store with a lifetime (24 hours, or the response's
    /// `Cache-Control: max-age`, at most 7 days; none with `no-store`), so a relaunch within it sends no
    /// discovery request; a stale, corrupt or other-issuer record is ignored. A custom discovery request
    /// takes the listed members and is kept in memory only. Failures are not cached.
    /// - Returns: The discovered values by name (used as `{discovered.NAME}`); empty without discovery.
    /// - Throws: `config_discovery_failed`; `issuer_mismatch` when the document names another issuer;
    ///   `confidential_client_in_mobile` when the document says the client is confidential; transport
    ///   errors as they are.
    @discardableResult
    public func discover() async throws(AuthError) -> [String: String] {
        if let discovery, discovery.isFresh(at: now()) { return discovery.values }
        let result: DiscoveryResult
        switch provider.discovery {
        case .none:
            return [:]
        case .openID(let issuerTemplate, let documentURL):
            result = try await discoverOpenID(issuerTemplate, documentURL: documentURL)
        case .custom(let request, let members):
            result = try await discoverCustom(request, members: members)
        }
        if let pointer = provider.clientPolicy.confidentialPointer, result.document.value(at: pointer) == .bool(true) {
            throw failure(.confidentialClientInMobile, "The provider says this client is confidential.")
        }
        if usesDPoP, let algorithms = result.document["dpop_signing_alg_values_supported"]?.array,
            !algorithms.contains(.string("ES256"))
        {
            // RFC 9449 §5.1: Latchkey's proofs are ES256; a server that lists only other algorithms refuses them.
            throw failure(
                .invalidConfiguration, "The provider's dpop_signing_alg_values_supported does not list ES256.")
        }
        if let current = discovery, current.isFresh(at: now()) { return current.values }
        discovery = result
        return result.values
    }

    private func discoverOpenID(_ issuerTemplate: ValueTemplate, documentURL: ValueTemplate?) async throws(AuthError)
        -> DiscoveryResult
    {
        let issuer = try TemplateRenderer.text(issuerTemplate, in: inputScope)
        guard let issuerURL = URL(string: issuer), RedirectURI.isAllowedEndpoint(issuerURL),
            var components = URLComponents(url: issuerURL, resolvingAgainstBaseURL: false)
        else { throw discoveryFailure("The issuer '\(issuer)' is not an https URL.") }
        let cacheKey = DiscoveryCache.key(storeKey: storeKey, issuer: issuer)
        let trimmedPath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.query = nil
        components.path = trimmedPath + "/.well-known/openid-configuration"
        var openID = components.url
        components.path = "/.well-known/oauth-authorization-server" + trimmedPath
        var oauth = components.url
        if let explicit = try explicitDocumentURL(documentURL) {
            // The provider says where its document is: only that one is read (no RFC 8414 guesses at the
            // issuer's host), and its `issuer` is checked exactly as a well-known document's.
            openID = explicit
            oauth = nil
        }
        if var cached = await cachedDiscovery(key: cacheKey, issuer: issuer) {
            cached.supplement = oauth.map { DiscoverySupplement(url: $0, issuer: issuer, storeKey: cacheKey) }
            return cached
        }
        var lastError = discoveryFailure("No discovery document was found.")
        for candidate in [openID, oauth].compactMap({ $0 }) {
            do throws(AuthError) {
                let (document, response) = try await fetchDocument(candidate)
                guard let named = document["issuer"]?.string, acceptsDiscoveredIssuer(named, requested: issuer) else {
                    throw discoveryFailure("The discovery document names another issuer.", code: .issuerMismatch)
                }
                let values = (document.object ?? [:]).compactMapValues(\.string)
                var result = DiscoveryResult(values: values, document: document)
                // `no-store` keeps the document for this process only, for the default lifetime.
                let lifetime = DiscoveryCache.lifetime(cacheControl: response.header("Cache-Control"))
                result.expiresAt = now().addingTimeInterval(lifetime > 0 ? lifetime : DiscoveryCache.defaultLifetime)
                if lifetime > 0 { await storeDiscovery(result, key: cacheKey, issuer: issuer) }
                if candidate == openID, let oauth {
                    result.supplement = DiscoverySupplement(
                        url: oauth, issuer: issuer, storeKey: lifetime > 0 ? cacheKey : nil)
                }
                return result
            } catch {
                if error.kind == .transport, error.code != .serverError { throw error }
                // A document naming another issuer is never passed over for the next one.
                if error.code == .issuerMismatch { throw error }
                lastError = error
            }
        }
        guard lastError.code != .configDiscoveryFailed else { throw lastError }
        throw discoveryFailure("Discovery failed: \(lastError.message)", providerCode: lastError.providerCode)
    }

    /// The configured discovery document URL (`discovery.url`), or `nil` when the descriptor has none or its
    /// template is a lone variable the app left out (the well-known location is used then).
    /// - Throws: `invalid_configuration` when it renders to anything but an https (or loopback http) URL
    ///   without a fragment.
    private func explicitDocumentURL(_ template: ValueTemplate?) throws(AuthError) -> URL? {
        guard let template, let rendered = try TemplateRenderer.render(.string(template), in: inputScope),
            let text = rendered.scalarText, !text.isEmpty
        else { return nil }
        guard let url = URL(string: text), url.fragment == nil, RedirectURI.isAllowedEndpoint(url) else {
            throw failure(.invalidConfiguration, "The discovery document URL is not an https (or loopback http) URL.")
        }
        return url
    }

    /// The fresh discovery record in the store, or `nil` (nothing stored, stale, corrupt, another issuer,
    /// or the store cannot be read: each is logged and discovery runs again).
    private func cachedDiscovery(key: String, issuer: String) async -> DiscoveryResult? {
        let data: Data?
        do {
            data = try await loadRecord(key: key)
        } catch {
            log(.info, "The stored discovery document could not be read (\(error.code.rawValue)); fetching it.")
            return nil
        }
        guard let data else { return nil }
        guard let entry = DiscoveryCache.decode(data, identity: identity, issuer: issuer) else {
            log(
                .info,
                "The stored discovery document is corrupt, another client's or for another issuer; fetching it again.")
            return nil
        }
        // A record lasting longer than the longest lifetime was written under a clock that ran ahead.
        guard now() < entry.expiresAt, entry.expiresAt.timeIntervalSince(now()) <= DiscoveryCache.maximumLifetime
        else {
            log(.debug, "The stored discovery document is stale; fetching it again.")
            return nil
        }
        let values = (entry.document.object ?? [:]).compactMapValues(\.string)
        return DiscoveryResult(values: values, document: entry.document, expiresAt: entry.expiresAt)
    }

    /// Writes a discovery result to the store; a failure is logged and otherwise ignored.
    func storeDiscovery(_ result: DiscoveryResult, key: String, issuer: String) async {
        guard let expiresAt = result.expiresAt else { return }
        let record = DiscoveryCache.encode(
            document: result.document, identity: identity, issuer: issuer, fetchedAt: now(), expiresAt: expiresAt)
        do {
            try await saveRecord(record, key: key)
        } catch {
            log(.info, "The discovery document could not be stored (\(error.code.rawValue)).")
        }
    }

    private func discoverCustom(_ request: String, members: [DiscoverySpec.Member]) async throws(AuthError)
        -> DiscoveryResult
    {
        let document: JSON
        do throws(AuthError) {
            guard let spec = provider.requests[request] else {
                throw discoveryFailure("The descriptor has no request named '\(request)'.")
            }
            let built = try builder.build(spec, scope: inputScope)
            var context = requestContext()
            context.descriptorRequest = DescriptorRequest(
                name: request, spec: spec, scope: inputScope, isTokenRequest: false)
            context.secrets = [configuration.clientSecret]
            let response = try await pipeline.send(built, context: context).response
            guard let parsed = try mapper.document(from: response, for: spec) else {
                throw discoveryFailure("The configuration response is empty.")
            }
            document = parsed
        } catch {
            if error.kind == .transport, error.code != .serverError { throw error }
            throw error.code == .configDiscoveryFailed ? error : discoveryFailure("Discovery failed: \(error.message)")
        }
        var values: [String: String] = [:]
        for member in members {
            if let value = document.value(at: member.pointer)?.scalarText { values[member.name] = value }
        }
        return DiscoveryResult(values: values, document: document)
    }

    func fetchDocument(_ url: URL) async throws(AuthError) -> (JSON, TransportResponse) {
        let headers = try TemplateRenderer.pairs(provider.commonHeaders, in: inputScope)
        var request = TransportRequest(method: "GET", url: url, headers: headers)
        request.setHeader("Accept", "application/json")
        if let userAgent = options.userAgent, !request.headerFields.contains("User-Agent") {
            request.setHeader("User-Agent", userAgent)
        }
        let response = try await pipeline.send(request, context: requestContext()).response
        let spec = RequestSpec(method: "GET", url: ValueTemplate(literal: url.absoluteString), response: .document)
        guard let document = try mapper.document(from: response, for: spec), document.object != nil else {
            throw discoveryFailure("The discovery document is not a JSON object.")
        }
        return (document, response)
    }

    private func discoveryFailure(
        _ message: String, code: AuthError.Code = .configDiscoveryFailed, providerCode: String? = nil
    ) -> AuthError {
        AuthError(code, message, providerCode: providerCode, provider: provider.name)
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
