import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime

/// A fake identity provider driven by a descriptor's ``ProviderSpec``, on a local ``TestHTTPServer``.
///
/// It reads the spec to learn which path is which request and which parameter names carry the code,
/// the verifier, the refresh token, the identifier and the password, so the same simulator serves any
/// descriptor: discovery (OpenID or custom), an authorize endpoint that signs the user in at once
/// (`login_hint=deny` or `deny=1` denies), code exchange with PKCE S256 and one-time codes, password
/// grants, refresh-token rotation with reuse detection, device authorization (approved after one
/// `authorization_pending` poll), ID tokens signed with a key served at `/jwks` and at the path the
/// descriptor's JWKS URL renders to, user documents, sign-out and `/protected`. Requests that the
/// descriptor authenticates with a client secret (`basic`, `post`) are refused without one.
///
/// A descriptor that declares `dpop` (RFC 9449) gets a strict DPoP server: a token request's `DPoP` proof is
/// checked (a compact JWS, `typ` `dpop+jwt`, ES256 with a public `jwk` only, its signature, `htm`, `htu` = the
/// simulator's URL of the request, `iat` within 5 minutes of the simulator's clock, a `jti` never seen before, and
/// the nonce when ``requireDPoPNonce(_:)`` demands one); a valid proof gets `token_type` `DPoP`, the access and
/// refresh token bound to its key's thumbprint (``dpopKeyThumbprint(boundTo:)``), and refreshing a bound refresh
/// token needs a proof of the same key. Without a proof a token request gets bearer tokens (`optional`) or
/// `invalid_dpop_proof` (`required`). A bound token is accepted at the user document, at requests authorized
/// with the access token and at `/protected` only as `Authorization: DPoP` with a proof carrying `ath`; sent as a
/// bearer token it gets a 401 `WWW-Authenticate: DPoP error="invalid_token"`. Errors have RFC 9449's shapes: a 400
/// `{"error":"invalid_dpop_proof"}` at the token endpoint, a 401 with `WWW-Authenticate: DPoP
/// error="invalid_dpop_proof"` at resources. OpenID discovery says `dpop_signing_alg_values_supported: ["ES256"]`.
///
/// A descriptor that declares `pushedAuthorization` (RFC 9126) gets a pushed authorization request endpoint
/// (`pushed_authorization_request_endpoint` in OpenID discovery, `/par`): it checks the client authentication and
/// the parameters as the authorize endpoint does and answers 201 with a one-time
/// `urn:ietf:params:oauth:request_uri:…` and `expires_in` (``setPushedRequestLifetime(_:)``). The authorize
/// endpoint opens it once, with its `client_id`, and uses the pushed parameters only (others in the URL are
/// ignored, as RFC 9101 §5 says); an expired request URI (``expirePushedRequests()``) gets an
/// `invalid_request_uri` callback, a used or unknown one a 400. ``requirePushedAuthorization(_:)`` makes pushing
/// mandatory. A pushed `dpop_jkt` binds the code to that key (RFC 9449 §10); so does a `DPoP` proof sent with the
/// push (§10.1), checked as at the token endpoint (nonce included): without `dpop_jkt` the code is bound to the
/// proof's key, with it both must name the same key (else a 400 `invalid_dpop_proof`).
public final class ProviderSimulator: Sendable {
    /// A part of the simulated provider whose requests ``requests(to:)`` selects.
    public enum Endpoint: Sendable, Hashable {
        /// The discovery document (OpenID, RFC 8414, or the descriptor's custom discovery request).
        case discovery
        /// The authorize endpoint (the browser's request).
        case authorize
        /// The JWKS.
        case jwks
        /// One of the descriptor's requests, by name (`exchangeCode`, `refreshToken`, ...).
        case request(String)
        /// The pushed authorization request endpoint (RFC 9126), for descriptors that declare it.
        case pushedAuthorization
    }

    /// The provider.
    @_spi(Generated) public let provider: ProviderSpec
    /// The simulator's base URL, `http://127.0.0.1:PORT` (also the issuer of URL-configured providers).
    public let issuer: URL
    /// The issuer the provider's spec expects (its rendered issuer template); usually ``issuer``.
    public let expectedIssuer: String
    /// Suggested input values: URL inputs point at the simulator, other inputs are `demo-client`.
    public let configurationValues: [String: String]
    /// The accounts.
    public let users: [SimulatedUser]

    /// A browser that opens authorization URLs on this simulator whatever their host.
    public let browser: SimulatorBrowser

    private let server: TestHTTPServer
    let core: SimulatorCore
    /// One key of each type for every simulator of the process: making a 2048-bit RSA key is the slowest
    /// part of a start.
    private static let sharedSigners = Locked<[TestSigner.KeyType: TestSigner]>([:])

    /// Starts a simulator.
    /// - Parameters:
    ///   - provider: The provider spec (a generated client's `provider`).
    ///   - users: The accounts (default: ``SimulatedUser/demo``); the first signs in through the browser.
    ///   - inputs: Input values that replace the suggested ones (``configurationValues``), e.g. a custom
    ///     domain; an empty value leaves the input out. The simulator's issuer and paths follow them.
    /// - Throws: ``TestServerError`` or ``TestSignerError`` when the server or the signing key cannot be made.
    @_spi(Generated) public init(
        provider: ProviderSpec, users: [SimulatedUser] = [.demo], inputs: [String: String] = [:]
    ) throws {
        let pasetoSigner: TestSigner?
        switch provider.tokens.accessTokenFormat.behaviour.verification {
        case .pasetoV4Public?: pasetoSigner = try Self.signer(.ed25519)
        case nil: pasetoSigner = nil
        }
        let core = SimulatorCore(
            provider: provider, users: users, signer: try Self.signer(.rsa(bits: 2048)), pasetoSigner: pasetoSigner)
        let server = try TestHTTPServer { request in await core.handle(request) }
        var values: [String: String] = [:]
        // An optional input naming the discovery document's own URL is left out: the simulator serves its
        // document where the issuer says (`{issuer}/.well-known/openid-configuration`).
        var documentURLInput: String?
        if case .openID(_, let documentURL?) = provider.discovery { documentURLInput = documentURL.soleVariable }
        for input in provider.inputs where input.isRequired || input.name != documentURLInput {
            values[input.name] = input.kind == .url ? server.baseURL.absoluteString : "demo-client"
        }
        for (name, value) in inputs { values[name] = value.isEmpty ? nil : value }
        let routes = SimulatorRoutes(provider: provider, base: server.baseURL, inputs: values)
        core.install(routes)
        self.provider = provider
        self.users = users
        self.server = server
        self.core = core
        self.issuer = server.baseURL
        self.expectedIssuer = routes.issuer
        self.configurationValues = values
        self.browser = SimulatorBrowser(base: server.baseURL, postsForms: provider.callback.location == .formPost)
    }

    private static func signer(_ type: TestSigner.KeyType) throws -> TestSigner {
        if let signer = sharedSigners.withLock({ $0[type] }) { return signer }
        let made = try TestSigner(type)  // outside the lock: other simulators never wait on key generation
        return sharedSigners.withLock { cache in
            if let cached = cache[type] { return cached }
            cache[type] = made
            return made
        }
    }

    deinit {
        server.stop()
    }

    /// The requests received so far, in arrival order.
    public var requests: [RecordedRequest] { server.requests }

    /// Forgets the recorded requests.
    public func resetRecording() { server.resetRecording() }

    /// A URL on the simulator.
    public func url(_ pathAndQuery: String) -> URL { server.url(pathAndQuery) }

    /// The demo resource: `GET` with a current bearer token answers `{"message": "Hello, <name>"}`.
    public var protectedURL: URL { server.url("/protected") }

    /// A transport that sends every request to the simulator whatever its host, for descriptors whose
    /// URLs are fixed hosts (`https://fidm.{dataCenter}/...`).
    public var transport: any HTTPTransport {
        SimulatorTransport(base: server.baseURL, inner: AuthClientOptions.defaultTransport())
    }

    /// A configuration for the runtime client with ``configurationValues``.
    /// - Parameter redirectURI: The redirect URI of browser sign-ins.
    @_spi(Generated) public func configuration(redirectURI: URL? = nil) -> ProviderConfiguration {
        ProviderConfiguration(values: configurationValues, redirectURI: redirectURI)
    }

    /// The next request (to `path`, or to any path when `nil`) is answered with `response` instead.
    public func failNext(_ response: TestResponse, path: String? = nil) {
        core.ledger.withLock { $0.faults.append((path, response)) }
    }

    /// Sets how long the ID tokens issued from now on are valid (3600 seconds unless set).
    /// - Parameter seconds: The lifetime in seconds.
    public func setIDTokenLifetime(_ seconds: Int) {
        core.ledger.withLock { $0.idTokenLifetime = seconds }
    }

    /// Revokes every token issued so far (the next refresh or user request fails).
    public func revokeAllTokens() {
        core.ledger.withLock { ledger in
            for grant in ledger.accessTokens.values { ledger.revokedFamilies.insert(grant.family) }
        }
    }

    /// The requests received so far that went to an endpoint.
    public func requests(to endpoint: Endpoint) -> [RecordedRequest] {
        guard let routes = core.routes else { return [] }
        return server.requests.filter { recorded in
            let request = SimulatorRequest(recorded)
            switch endpoint {
            case .discovery:
                if case .custom(let name, _) = provider.discovery { return routes.request(request, is: name) }
                return request.method == "GET" && routes.discoveryPaths.contains(request.path)
            case .authorize:
                return request.method == "GET" && request.path == routes.authorizePath
            case .jwks:
                return request.method == "GET" && routes.jwksPaths.contains(request.path)
            case .request(let name):
                return routes.request(request, is: name)
            case .pushedAuthorization:
                return request.method == "POST" && request.path == routes.pushedAuthorizationPath
            }
        }
    }

    /// The token requests received so far: code exchange, refresh, password and device token requests.
    public var tokenRequests: [RecordedRequest] {
        guard let routes = core.routes else { return [] }
        let flows = provider.flows
        let names = Set(
            [
                flows.authorizationCode?.exchangeRequest, flows.refresh?.request, flows.password?.request,
                flows.deviceCode?.tokenRequest,
            ].compactMap { $0 })
        return server.requests.filter { recorded in
            routes.route(for: SimulatorRequest(recorded)).map { names.contains($0.name) } ?? false
        }
    }

    /// The next request that is the descriptor's request `name` is answered with `response` instead
    /// (after it is recognized, before it is checked).
    public func failNext(_ response: TestResponse, request name: String) {
        core.ledger.withLock { $0.requestFaults.append((name, response)) }
    }

    /// An error response as this provider sends one, for ``failNext(_:request:)``: `providerCode` at the
    /// descriptor's first code pointer (a JSON number when it is all digits; left out when `nil`), a
    /// message at a message pointer, `status` at the status pointer when there is one.
    /// - Parameters:
    ///   - providerCode: The provider's error code, or `nil` for none.
    ///   - status: The HTTP status (default 400); with `inSuccessBody`, only the status pointer's value.
    ///   - inSuccessBody: Answer HTTP 200 with the error in the body (for descriptors with
    ///     `errorInSuccessBody`, whose pointer is given a value even when there is no code).
    ///   - members: More members of the body, JSON pointer → text (placed as strings, arrays made for index
    ///     segments such as `/errors/0/field`), for error rows that `match` on them.
    public func errorResponse(
        providerCode: String?, status: Int = 400, inSuccessBody: Bool = false, members: [String: String] = [:]
    ) -> TestResponse {
        core.errorBody(providerCode: providerCode, status: status, inSuccessBody: inSuccessBody, members: members)
    }

    /// The value the simulator serves for the descriptor's capture `name` (in the capture request's answer,
    /// or in token responses), the same for every session: `simulated-cloudid`.
    public static func capturedValue(_ name: String) -> String {
        SimulatorCore.capturedValue(name)
    }

    /// The next authorization request is answered with a callback that carries an error instead of a
    /// code: `error` in the callback's error parameter, `errorCode` in its error-code parameter (when the
    /// descriptor has one), the state as usual.
    /// `parameters` are more callback parameters (name → value), for callback rows that `match` on them.
    public func failNextAuthorization(
        error: String, errorCode: String? = nil, description: String = "The simulated provider refused the sign-in.",
        parameters: [String: String] = [:]
    ) {
        let extra = parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        core.ledger.withLock {
            $0.authorizationFaults.append(
                .init(error: error, errorCode: errorCode, description: description, parameters: extra))
        }
    }

    /// Closes the port and every connection, without waiting for the server's threads (they end on their
    /// own), so it is safe in async code. Idempotent.
    public func stop() { server.stop() }

    /// The same as ``stop()``, kept for callers in async code. Idempotent.
    public func shutdown() async {
        server.stop()
    }
}
