import Foundation

extension AuthClient {
    /// The clock skew allowed when an access token's `exp`, `nbf` and `iat` are checked, in seconds.
    static var accessTokenClockSkew: TimeInterval { 60 }

    /// Verifies a new session's access token offline when the descriptor says it is verifiable
    /// (``TokenSpec/Format/pasetoV4Public``); does nothing for opaque and JWT access tokens.
    ///
    /// Call it after a code exchange and after each refresh, before the session is stored: the token's
    /// signature is checked against the key set at ``TokenSpec/accessTokenKeysURL`` (fetched once, refetched
    /// once for an unknown `kid`), then `exp`, `nbf` and `iat` (with ``accessTokenClockSkew``), `iss` and
    /// `aud`. A `token_use` claim, when present, must be `access`.
    /// - Parameters:
    ///   - session: The session from the token response.
    ///   - previous: The session that was refreshed, if any: the new token must name the same `sub`.
    /// - Throws: `invalid_token` when the token fails a check; `invalid_configuration` when the descriptor
    ///   names no key set or issuer; the key set's fetch errors.
    func validateNewAccessToken(_ session: Session, previous: Session? = nil) async throws(AuthError) {
        guard provider.tokens.accessTokenFormat == .pasetoV4Public else { return }
        let claims = try await verifiedAccessTokenClaims(session.accessToken)
        guard let previous, let earlierSubject = Self.unverifiedPasetoClaims(previous.accessToken)?["sub"]?.string
        else { return }
        guard let subject = claims["sub"]?.string, subject.utf8.elementsEqual(earlierSubject.utf8) else {
            throw failure(.invalidToken, "The refreshed access token names another subject than the session's.")
        }
    }

    /// Verifies a PASETO `v4.public` access token of this provider and returns its claims.
    /// - Parameter token: The access token.
    /// - Returns: The verified, validated claims.
    /// - Throws: `invalid_token` when the token fails a check (messages never contain it);
    ///   `invalid_configuration` when the provider's access tokens are not PASETO or the descriptor names no
    ///   key set or issuer; the key set's fetch errors.
    func verifiedAccessTokenClaims(_ token: String) async throws(AuthError) -> [String: JSON] {
        do throws(AuthError) {
            guard provider.tokens.accessTokenFormat == .pasetoV4Public else {
                throw failure(.invalidConfiguration, "This provider's access tokens are not PASETO v4.public tokens.")
            }
            guard let keyID = PasetoV4Public.keyID(of: token) else {
                throw failure(.invalidToken, "The access token is not a v4.public token with a kid in its footer.")
            }
            let validator = try await accessTokenValidator()
            let keys = try await accessTokenKeyCache().keySet(containingKeyID: keyID)
            let verified = try keys.verify(token, validator: validator, now: now())
            if let use = verified.claims["token_use"], use.string != "access" {
                throw failure(.invalidToken, "The access token's token_use is not \"access\".")
            }
            return verified.claims
        } catch {
            var labelled = error
            labelled.provider = labelled.provider ?? provider.name
            throw labelled
        }
    }

    /// The claim rules: the descriptor's issuer (or the OpenID issuer, or the discovered `issuer`), its
    /// audience, and ``accessTokenClockSkew``.
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
        return PasetoClaimsValidator(
            issuer: issuer, audience: provider.tokens.audience, skew: Self.accessTokenClockSkew)
    }

    /// The key cache for the descriptor's `accessTokenKeys` URL, created on first use and kept with the
    /// discovery result (the URL usually comes from it).
    private func accessTokenKeyCache() async throws(AuthError) -> AccessTokenKeyCache {
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
        let cache = AccessTokenKeyCache(
            url: url, transport: options.transport, userAgent: options.userAgent,
            defaultImplicitAssertion: Array((provider.tokens.implicitAssertion ?? "").utf8), now: options.now)
        if discovery == nil, provider.discovery == nil {
            // Without discovery there is no result to hang the cache on; an empty one changes nothing else.
            discovery = DiscoveryResult(values: [:], document: .object([:]))
        }
        discovery?.accessTokenKeys = cache
        return cache
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

/// Fetches a provider's PASETO key document (`{"keys": [...]}`, ``PasetoKeySet/init(document:)``) and keeps it.
/// Entries without an `implicit_assertion` get the descriptor's (``TokenSpec/implicitAssertion``): Base IdP's
/// SDK signs every access token with one whether or not its key document names it.
///
/// The set is fetched on first use and kept. When a token names a `kid` the cached set lacks (the issuer
/// rotated its keys), the set is fetched again once, but never more often than once per
/// ``minimumRefetchInterval``, so that tokens with made-up `kid`s cannot make the client hammer the issuer.
/// Concurrent callers share one request.
actor AccessTokenKeyCache {
    /// The minimum time between two fetches triggered by unknown `kid`s, in seconds.
    static let minimumRefetchInterval: TimeInterval = 60

    /// The key document's URL.
    nonisolated let url: URL
    /// How many key-document requests the cache has sent.
    private(set) var fetchCount = 0

    private let transport: any HTTPTransport
    private let userAgent: String?
    private let defaultImplicitAssertion: [UInt8]
    private let now: @Sendable () -> Date
    private var cached: PasetoKeySet?
    private var lastFetchStart: Date?
    private var inFlight: Task<Result<PasetoKeySet, AuthError>, Never>?

    init(
        url: URL, transport: any HTTPTransport, userAgent: String?, defaultImplicitAssertion: [UInt8],
        now: @escaping @Sendable () -> Date
    ) {
        self.url = url
        self.transport = transport
        self.userAgent = userAgent
        self.defaultImplicitAssertion = defaultImplicitAssertion
        self.now = now
    }

    /// A key set that has a key with this `kid`: the cached one if it has it, otherwise a newly fetched one
    /// unless the last fetch started less than ``minimumRefetchInterval`` ago.
    /// - Parameter keyID: The token's (unauthenticated) `kid`; only used to look a trusted key up.
    /// - Returns: The key set.
    /// - Throws: `invalid_token` when no set has the key; fetch errors otherwise.
    func keySet(containingKeyID keyID: String) async throws(AuthError) -> PasetoKeySet {
        let current: PasetoKeySet
        if let cached, inFlight == nil { current = cached } else { current = try await fetch() }
        if current.key(for: keyID) != nil { return current }
        let mayRefetch = lastFetchStart.map { now().timeIntervalSince($0) >= Self.minimumRefetchInterval } ?? true
        if mayRefetch {
            let fresh = try await fetch()
            if fresh.key(for: keyID) != nil { return fresh }
        }
        throw AuthError(
            .invalidToken, "No key in the access-token key set at \(url.absoluteString) has the token's kid.")
    }

    /// Fetches the set, or joins the fetch under way.
    private func fetch() async throws(AuthError) -> PasetoKeySet {
        if let inFlight { return try await inFlight.value.get() }
        lastFetchStart = now()
        fetchCount += 1
        let task = Task { [url, transport, userAgent, defaultImplicitAssertion] in
            await Self.download(
                url: url, transport: transport, userAgent: userAgent, defaultImplicitAssertion: defaultImplicitAssertion
            )
        }
        inFlight = task
        let result = await task.value
        inFlight = nil
        if case .success(let keys) = result { cached = keys }
        return try result.get()
    }

    private static func download(
        url: URL, transport: any HTTPTransport, userAgent: String?, defaultImplicitAssertion: [UInt8]
    ) async -> Result<PasetoKeySet, AuthError> {
        var request = TransportRequest(method: "GET", url: url, headers: [("Accept", "application/json")])
        if let userAgent { request.setHeader("User-Agent", userAgent) }
        do throws(AuthError) {
            let response = try await transport.send(request)
            guard response.status == 200 else {
                let code: AuthError.Code = response.status >= 500 ? .serverError : .invalidResponse
                return .failure(
                    AuthError(
                        code, "The access-token key set endpoint answered HTTP \(response.status).",
                        status: response.status))
            }
            let published = try PasetoKeySet(document: response.body)
            guard !defaultImplicitAssertion.isEmpty else { return .success(published) }
            var keys: [PasetoKeySet.Key] = []
            for key in published.keys {
                keys.append(
                    key.implicitAssertion.isEmpty
                        ? try PasetoKeySet.Key(
                            keyID: key.keyID, publicKey: key.publicKey, implicitAssertion: defaultImplicitAssertion)
                        : key)
            }
            return .success(try PasetoKeySet(keys: keys))
        } catch {
            return .failure(error)
        }
    }
}
