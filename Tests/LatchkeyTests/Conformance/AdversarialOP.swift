import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// An OpenID provider on 127.0.0.1 that misbehaves on demand, the way the OpenID Foundation's
/// relying-party conformance modules (`net.openid.conformance.openid.client`) do: every part of the
/// discovery document, the callback, the ID token (header, claims, signature, signing key), the refresh
/// response, the user-info document and the logout redirect can be changed by a test.
///
/// Endpoints: `/.well-known/openid-configuration`, `/.well-known/oauth-authorization-server` (404 unless
/// ``Behaviour/metadata`` is set), `/authorize` (checks the request, then redirects to the app with a
/// code), `/token` (authorization code with PKCE S256, refresh with rotation, device code), `/userinfo`
/// (bearer header only), `/jwks`, `/logout` (RP-initiated logout), `/revoke` and `/device` (RFC 8628,
/// approved at once).
final class AdversarialOP: Sendable {
    static let clientID = "conformance-rp"
    static let subject = "user-1"
    static let redirectURI = URL(string: "dev.latchkey.rp://callback")!
    static let postLogoutRedirectURI = URL(string: "dev.latchkey.rp://logged-out")!

    /// Keys made once per test run: RSA key generation is slow.
    static let rsaA = try! TestSigner(.rsa())
    static let rsaB = try! TestSigner(.rsa())
    static let p256 = try! TestSigner(.p256)

    /// A published or signing key.
    struct Key: Sendable {
        var signer: TestSigner
        var keyID: String?
        /// Whether the JWKS lists it.
        var published = true
        /// The JWK `alg`, when the JWKS names one.
        var algorithm: SignatureAlgorithm? = nil
    }

    /// How an ID token is signed.
    enum Signature: Sendable {
        /// With the draft's signer and algorithm.
        case valid
        /// Valid, then one byte of the signature flipped.
        case corrupted
        /// `alg: none` and an empty signature.
        case none
        /// `alg: HS256` with a MAC the client cannot check (a public client has no secret).
        case hs256
    }

    /// An ID token about to be signed; tests edit any part of it.
    struct IDTokenDraft {
        var header: [String: Any]
        var claims: [String: Any]
        var signer: TestSigner
        var algorithm: SignatureAlgorithm
        var signature: Signature = .valid
    }

    /// What the callback's `iss` parameter is.
    enum CallbackIssuer: Sendable {
        case issuer, omitted
        case value(String)
    }

    /// What the logout redirect's `state` is.
    enum LogoutState: Sendable {
        case echoed, omitted
        case value(String)
    }

    /// The misbehaviour of the provider; the default behaves.
    struct Behaviour: Sendable {
        var discovery: @Sendable (inout [String: Any]) -> Void = { _ in }
        /// Where the discovery document is served instead of `/.well-known/openid-configuration` (which then
        /// answers 404), or `nil` for the well-known location.
        var discoveryPath: String? = nil
        /// The RFC 8414 document, or `nil` for a 404.
        var metadata: (@Sendable (String) -> [String: Any])? = nil
        /// When set, the RFC 8414 metadata endpoint answers with this status and no document.
        var metadataFailureStatus: Int? = nil
        var callbackIssuer = CallbackIssuer.omitted
        var idToken: @Sendable (inout IDTokenDraft) -> Void = { _ in }
        var refreshIDToken: @Sendable (inout IDTokenDraft) -> Void = { _ in }
        var userinfo: @Sendable (inout [String: Any]) -> Void = { _ in }
        var logoutState = LogoutState.echoed
        /// Rotates to this key when the next authorization code is redeemed, right before signing.
        var rotateBeforeSigning: Key? = nil
    }

    struct Grant {
        var nonce: String?
        var challenge: String
        var redirectURI: String
    }

    struct State {
        var behaviour = Behaviour()
        var keys: [Key] = [Key(signer: AdversarialOP.rsaA, keyID: "key-a")]
        var signingKey = Key(signer: AdversarialOP.rsaA, keyID: "key-a")
        var issued = 0
        var codes: [String: Grant] = [:]
        var refreshTokens: Set<String> = []
        var accessTokens: Set<String> = []
        var authTime: Date?
    }

    let server: TestHTTPServer
    let clock: OPClock
    let state = Locked(State())

    /// The issuer: the server's base URL.
    var issuer: String { server.baseURL.absoluteString }

    /// The provider the server's handler answers with; emptied by ``shutdown()``.
    private let handler: OIDCShared<AdversarialOP?>

    init(clock: OPClock = OPClock()) throws {
        self.clock = clock
        let handler = OIDCShared<AdversarialOP?>(nil)
        self.handler = handler
        server = try TestHTTPServer { request in
            guard let op = handler.value else { return .text("stopped", status: 503) }
            return op.respond(request)
        }
        handler.value = self
    }

    /// Runs `body` with a provider, then stops it off the concurrency pool (also when `body` throws).
    static func run(_ body: (AdversarialOP) async throws -> Void) async throws {
        let op = try AdversarialOP()
        do {
            try await body(op)
        } catch {
            await op.shutdown()
            throw error
        }
        await op.shutdown()
    }

    /// Closes the port on a thread of its own (``TestHTTPServer/stop()`` waits for the server's threads,
    /// which must not happen on the concurrency pool).
    func shutdown() async {
        handler.value = nil
        let server = self.server
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                server.stop()
                continuation.resume()
            }
            thread.name = "latchkey.conformance-op.shutdown"
            thread.start()
        }
    }

    /// Changes the behaviour.
    func behave(_ change: (inout Behaviour) -> Void) { state.withLock { change(&$0.behaviour) } }

    /// Publishes `keys` and signs with `signing` from now on.
    func useKeys(_ keys: [Key], signing: Key) {
        state.withLock {
            $0.keys = keys
            $0.signingKey = signing
        }
    }

    /// The requests to a path.
    func requests(_ path: String) -> [RecordedRequest] { server.requests.filter { $0.path == path } }

    /// The paths requested, in order.
    var paths: [String] { server.requests.map(\.path) }

    // MARK: - Routing

    private func respond(_ request: RecordedRequest) -> TestResponse {
        if let discoveryPath = state.withLock({ $0.behaviour.discoveryPath }) {
            if request.method == "GET", request.path == discoveryPath { return .json(discoveryDocument()) }
            if request.path == "/.well-known/openid-configuration" {
                return .json(["error": "not_found"], status: 404)
            }
        }
        switch (request.method, request.path) {
        case ("GET", "/.well-known/openid-configuration"): return .json(discoveryDocument())
        case ("GET", "/.well-known/oauth-authorization-server"):
            if let status = state.withLock({ $0.behaviour.metadataFailureStatus }) {
                return .json(["error": "unavailable"], status: status)
            }
            guard let metadata = state.withLock({ $0.behaviour.metadata }) else {
                return .json(["error": "not_found"], status: 404)
            }
            return .json(metadata(issuer))
        case ("GET", "/authorize"): return authorize(request)
        case ("POST", "/token"): return token(request)
        case ("GET", "/userinfo"): return userinfo(request)
        case ("GET", "/jwks"): return .json(["keys": publishedKeys()])
        case ("GET", "/logout"): return logout(request)
        case ("POST", "/revoke"): return TestResponse(status: 200)
        case ("POST", "/device"):
            return .json([
                "device_code": "device-code-1", "user_code": "WDJB-MJHT", "verification_uri": issuer + "/device",
                "expires_in": 600, "interval": 5,
            ])
        default: return .json(["error": "not_found"], status: 404)
        }
    }

    private func discoveryDocument() -> [String: Any] {
        var document: [String: Any] = [
            "issuer": issuer, "authorization_endpoint": issuer + "/authorize", "token_endpoint": issuer + "/token",
            "userinfo_endpoint": issuer + "/userinfo", "jwks_uri": issuer + "/jwks",
            "end_session_endpoint": issuer + "/logout", "revocation_endpoint": issuer + "/revoke",
            "response_types_supported": ["code"], "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"], "code_challenge_methods_supported": ["S256"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
        ]
        state.withLock { $0.behaviour.discovery }(&document)
        return document
    }

    private func publishedKeys() -> [[String: String]] {
        state.withLock { $0.keys }.filter(\.published).map { key in
            key.signer.publicJWK(keyID: key.keyID, algorithm: key.algorithm)
        }
    }

    private func authorize(_ request: RecordedRequest) -> TestResponse {
        guard let redirect = request.query("redirect_uri"), redirect == Self.redirectURI.absoluteString,
            request.query("client_id") == Self.clientID, request.query("response_type") == "code",
            request.query("code_challenge_method") == "S256", let challenge = request.query("code_challenge"),
            request.query("scope")?.split(separator: " ").contains("openid") == true
        else { return .text("The authorization request is not acceptable.", status: 400) }
        let (code, issuerParameter) = state.withLock { state -> (String, CallbackIssuer) in
            state.issued += 1
            let code = "code-\(state.issued)"
            state.codes[code] = Grant(nonce: request.query("nonce"), challenge: challenge, redirectURI: redirect)
            return (code, state.behaviour.callbackIssuer)
        }
        var components = URLComponents(string: redirect)!
        var items = [URLQueryItem(name: "code", value: code)]
        if let state = request.query("state") { items.append(URLQueryItem(name: "state", value: state)) }
        switch issuerParameter {
        case .issuer: items.append(URLQueryItem(name: "iss", value: issuer))
        case .value(let value): items.append(URLQueryItem(name: "iss", value: value))
        case .omitted: break
        }
        components.queryItems = items
        return .redirect(to: components.url!.absoluteString)
    }

    private func logout(_ request: RecordedRequest) -> TestResponse {
        guard let redirect = request.query("post_logout_redirect_uri"),
            redirect == Self.postLogoutRedirectURI.absoluteString
        else { return .text("Logged out.", status: 200) }
        var components = URLComponents(string: redirect)!
        switch state.withLock({ $0.behaviour.logoutState }) {
        case .echoed: components.queryItems = request.query("state").map { [URLQueryItem(name: "state", value: $0)] }
        case .value(let value): components.queryItems = [URLQueryItem(name: "state", value: value)]
        case .omitted: break
        }
        return .redirect(to: components.url!.absoluteString)
    }

    private func userinfo(_ request: RecordedRequest) -> TestResponse {
        let bearer = request.header("Authorization").flatMap { header -> String? in
            header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : nil
        }
        let (live, edit) = state.withLock { ($0.accessTokens.contains(bearer ?? ""), $0.behaviour.userinfo) }
        guard live else { return .json(["error": "invalid_token"], status: 401) }
        var document: [String: Any] = [
            "sub": Self.subject, "name": "Ada Lovelace", "email": "ada@example.com", "email_verified": true,
        ]
        edit(&document)
        return .json(document)
    }
}

/// The clock the provider and the client under test share; tests move it by hand.
final class OPClock: Sendable {
    private let current: Locked<Date>

    /// Starts at the current time rounded down to a whole second.
    init() { current = Locked(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))) }

    var now: Date { current.withLock { $0 } }

    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
