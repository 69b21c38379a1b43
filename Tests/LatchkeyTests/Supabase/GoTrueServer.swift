import Foundation
import Latchkey
import LatchkeyTesting
import Synchronization

/// A Supabase Auth (GoTrue) look-alike behind a Kong-like gateway, on a ``TestHTTPServer``, that enforces
/// the wire contract of `/work/shared/reference/supabase-auth-wire.md` instead of merely answering:
///
/// - Gateway: routes live under `/auth/v1`; `apikey` (the publishable key) is required except on the
///   routes Kong leaves open (`/verify`, `/callback`, `/authorize`).
/// - Bodies: `Content-Type: application/json`, a JSON object, and only the members GoTrue's params struct
///   declares (stricter than GoTrue, which ignores unknown members: a misspelt member fails here).
///   `grant_type` is read from the query only.
/// - `Authorization: Bearer` on `/user` and `/logout` (401 `no_authorization`, 403 `bad_jwt`,
///   403 `session_not_found`).
/// - Refresh-token rotation with GoTrue's legacy (v1) reuse rules at a reuse interval of 0: a rotated token
///   that is the parent of the active one returns the active one again; any other reuse revokes the family
///   and answers 400 `refresh_token_already_used`.
/// - PKCE flow state: challenge checks at creation, S256 (or plain) verification, 300 s expiry, one use.
/// - Errors in shape (B) `{"code":"…","message":"…"}` when `X-Supabase-Api-Version` ≥ 2024-01-01 is sent
///   (echoed back), shape (A) `{"code":400,"error_code":"…","msg":"…"}` otherwise, and the OAuth shape (C)
///   `{"error":"invalid request","error_description":"…"}` where GoTrue uses it (ID-token grant).
/// - `POST /logout` answers 204 with no body.
///
/// An OAuth sign-in is played by a browser (``HeadlessUserAgent``): `/authorize` redirects to a fake
/// Google at `/provider/authorize`, which consents or cancels (``providerDecision``) and returns to
/// `/auth/v1/callback`, which redirects to the app with `?code=` or with the error in query and fragment.
final class GoTrueServer: Sendable {
    /// The publishable key the gateway accepts.
    static let publishableKey = "sb_publishable_wireTests_4f2a9c0d"
    /// The issuers of ID tokens the ID-token grant accepts, by provider.
    static let issuers = ["google": "https://accounts.google.com", "apple": "https://appleid.apple.com"]

    /// What the fake external provider does with an authorization request.
    enum ProviderDecision: Sendable {
        /// The user consents; GoTrue signs in (or creates) this user.
        case consent(email: String, name: String)
        /// The user cancels; the provider returns `error=access_denied`.
        case cancel
    }

    /// A scripted failure for the next request to a route.
    enum Failure: Sendable {
        /// A GoTrue `HTTPError`, rendered in shape (A) or (B) as the request's API version says.
        case http(status: Int, code: String, message: String)
        /// An OAuth error, shape (C), always HTTP 400.
        case oauth(error: String, description: String)
        /// A raw response (e.g. the gateway's own 429 or 401).
        case raw(TestResponse)
    }

    /// An email GoTrue sent.
    struct Email: Sendable {
        var to: String
        var type: String
        /// The six-digit code.
        var token: String
        /// The hash used by links and `POST /verify {token_hash}`.
        var tokenHash: String
        /// The link in the email (`…/auth/v1/verify?token=…&type=…&redirect_to=…`).
        var link: URL
    }

    let http: TestHTTPServer
    private let core: GoTrueCore

    /// Starts a server.
    /// - Parameter autoconfirm: Whether sign-ups are confirmed at once (a session) or need an email (a user).
    init(autoconfirm: Bool = true) throws {
        let core = GoTrueCore()
        self.core = core
        self.http = try TestHTTPServer { request in await core.handle(request) }
        core.state.withLock {
            $0.base = http.baseURL
            $0.autoconfirm = autoconfirm
        }
    }

    /// The project URL (`http://127.0.0.1:PORT`); the API is under `/auth/v1`.
    var projectURL: URL { http.baseURL }

    /// Stops the server on a thread of its own (stopping waits for the server's threads, which must never
    /// happen on the cooperative pool).
    func shutdown() async {
        let http = self.http
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                http.stop()
                continuation.resume()
            }.start()
        }
    }

    // MARK: - Inspection

    /// Every request received, in order.
    var requests: [RecordedRequest] { http.requests }

    /// The requests to one GoTrue route (`/token`, `/user`, …).
    func requests(_ route: String) -> [RecordedRequest] { http.requests.filter { $0.path == "/auth/v1" + route } }

    /// The requests to GoTrue's API (everything but the browser's pages).
    var apiRequests: [RecordedRequest] {
        let browser: Set<String> = ["/auth/v1/authorize", "/auth/v1/callback", "/provider/authorize"]
        return http.requests.filter {
            !browser.contains($0.path) && !($0.path == "/auth/v1/verify" && $0.method == "GET")
        }
    }

    /// Forgets the recorded requests.
    func resetRecording() { http.resetRecording() }

    /// The emails sent, oldest first.
    var outbox: [Email] { core.state.withLock { $0.outbox } }

    /// The number of sessions alive on the server.
    var liveSessions: Int { core.state.withLock { $0.sessions.count } }

    /// Whether a refresh token is still usable (known and not revoked).
    func isUsable(refreshToken: String) -> Bool {
        core.state.withLock { state in state.refreshTokens[refreshToken].map { !$0.revoked } ?? false }
    }

    /// The current password of a user.
    func password(of email: String) -> String? {
        core.state.withLock { state in state.users.first { $0.email == email }?.password }
    }

    // MARK: - Control

    /// Adds a user.
    func addUser(email: String, password: String, confirmed: Bool = true) {
        core.state.withLock { state in
            _ = state.createUser(email: email, password: password, provider: "email", confirmed: confirmed, name: nil)
        }
    }

    /// What the fake external provider does next.
    func setProviderDecision(_ decision: ProviderDecision) {
        core.state.withLock { $0.providerDecision = decision }
    }

    /// Makes the next request to a route fail.
    func failNext(_ route: String, _ failure: Failure) {
        core.state.withLock { $0.failures[route, default: []].append(failure) }
    }

    /// Moves the server's clock forward.
    func advanceClock(by seconds: TimeInterval) {
        core.state.withLock { $0.clockOffset += seconds }
    }

    /// Runs `work` (on the cooperative pool, without blocking) before answering the first refresh request that
    /// carries `refreshToken`; other requests are served meanwhile.
    func beforeRefresh(with refreshToken: String, _ work: @escaping @Sendable () async -> Void) {
        core.hooks.withLock { $0.append(GoTrueCore.Hook(refreshToken: refreshToken, work: work)) }
    }

    /// Rotates a refresh token as if another device had refreshed with it; returns the new one.
    @discardableResult
    func rotateOutOfBand(_ refreshToken: String) -> String? {
        core.state.withLock { state in
            guard var record = state.refreshTokens[refreshToken], !record.revoked else { return nil }
            record.revoked = true
            state.refreshTokens[refreshToken] = record
            return state.newRefreshToken(session: record.sessionID, parent: refreshToken)
        }
    }

    // MARK: - ID tokens

    /// An unsigned ID token as Apple or Google would issue it (GoTrue here does not verify signatures).
    static func idToken(provider: String, sub: String?, email: String, nonce: String?) -> String {
        var claims: [String: Any] = [
            "iss": issuers[provider] ?? "https://unknown.example", "aud": "dev.example.app", "email": email,
            "email_verified": true, "iat": Int(Date().timeIntervalSince1970),
            "exp": Int(Date().timeIntervalSince1970) + 600,
        ]
        if let sub { claims["sub"] = sub }
        if let nonce { claims["nonce"] = sha256Hex(nonce) }
        return jwt(claims)
    }

    /// A JWT with the claims and a random signature.
    static func jwt(_ claims: [String: Any]) -> String {
        let header = try! JSONSerialization.data(
            withJSONObject: ["alg": "HS256", "typ": "JWT"], options: [.sortedKeys])
        let payload = try! JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        let signature = (0..<32).map { _ in UInt8.random(in: 0...255) }
        return Base64URL.encode(header) + "." + Base64URL.encode(payload) + "." + Base64URL.encode(signature)
    }

    /// The claims of a JWT, unverified.
    static func claims(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
    }

    /// The lowercase hex SHA-256 of a string (GoTrue's nonce hash).
    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

/// The server's state, shared with the handler.
final class GoTrueCore: Sendable {
    struct Hook: Sendable {
        var refreshToken: String
        var work: @Sendable () async -> Void
    }

    let state = Mutex(GoTrueState())
    let hooks = Mutex<[Hook]>([])

    func handle(_ request: RecordedRequest) async -> TestResponse {
        if request.path == "/auth/v1/token", request.query("grant_type") == "refresh_token",
            let token = (request.jsonBody as? [String: Any])?["refresh_token"] as? String,
            let hook = hooks.withLock({ hooks -> Hook? in
                guard let index = hooks.firstIndex(where: { $0.refreshToken == token }) else { return nil }
                return hooks.remove(at: index)
            })
        {
            await hook.work()
        }
        if request.path == "/provider/authorize" {
            return state.withLock { $0.providerAuthorize(request) }
        }
        guard request.path.hasPrefix("/auth/v1/") else {
            return .json(["message": "no Route matched with those values"], status: 404)
        }
        let route = String(request.path.dropFirst("/auth/v1".count))
        // Kong: key-auth on /auth/v1/ except the open routes (docs: docker/volumes/api/kong.yml).
        let open: Set<String> = ["/verify", "/callback", "/authorize", "/.well-known/jwks.json"]
        if !open.contains(route) {
            guard let key = request.header("apikey") else {
                return .json(
                    [
                        "message": "No API key found in request",
                        "hint": "No `apikey` request header or url param was found.",
                    ],
                    status: 401)
            }
            guard key == GoTrueServer.publishableKey else {
                return .json(
                    [
                        "message": "Invalid API key",
                        "hint": "Double check your Supabase `anon` or `service_role` API key.",
                    ],
                    status: 401)
            }
        }
        return state.withLock { state in
            do throws(Reject) {
                return try state.route(route, request)
            } catch {
                return error.response
            }
        }
    }
}

/// A request GoTrue refuses, with its response.
struct Reject: Error {
    let response: TestResponse
}

struct GoTrueState: Sendable {
    struct UserRecord: Sendable {
        var id: String
        var email: String
        var password: String?
        var provider: String
        var name: String?
        var confirmedAt: Date?
        var confirmationSentAt: Date?
        var recoverySentAt: Date?
        var lastSignInAt: Date?
        var createdAt: Date
        var updatedAt: Date
    }

    struct RefreshRecord: Sendable {
        var sessionID: String
        var parent: String?
        var revoked: Bool
    }

    struct AccessRecord: Sendable {
        var sessionID: String
        var userID: String
        var expiresAt: Date
    }

    struct FlowState: Sendable {
        var id: String
        var authCode: String
        var challenge: String
        var method: String
        var provider: String
        var authenticationMethod: String
        var redirectTo: String
        var userID: String?
        var codeIssued: Bool
        var callbackUsed: Bool
        var createdAt: Date
    }

    struct OTP: Sendable {
        var email: String
        var type: String
        var token: String
        var tokenHash: String
        var used: Bool
        var flowStateID: String?
    }

    var base = URL(string: "http://127.0.0.1")!
    var autoconfirm = true
    var clockOffset: TimeInterval = 0
    var providerDecision = GoTrueServer.ProviderDecision.consent(email: "ada@example.com", name: "Ada Lovelace")
    var users: [UserRecord] = []
    var sessions: [String: String] = [:]  // session id → user id
    var refreshTokens: [String: RefreshRecord] = [:]
    var accessTokens: [String: AccessRecord] = [:]
    var flowStates: [FlowState] = []
    var otps: [OTP] = []
    var outbox: [GoTrueServer.Email] = []
    var failures: [String: [GoTrueServer.Failure]] = [:]

    var now: Date { Date().addingTimeInterval(clockOffset) }
    var siteURL: String { base.absoluteString + "/site" }
    static let flowStateLifetime: TimeInterval = 300
    static let minimumPasswordLength = 6

    // MARK: - Routing

    mutating func route(_ route: String, _ request: RecordedRequest) throws(Reject) -> TestResponse {
        if var queue = failures[route], !queue.isEmpty {
            let failure = queue.removeFirst()
            failures[route] = queue
            switch failure {
            case .http(let status, let code, let message): throw httpError(request, status, code, message)
            case .oauth(let error, let description): throw oauthError(error, description)
            case .raw(let response): return response
            }
        }
        switch (request.method, route) {
        case ("POST", "/token"): return try token(request)
        case ("GET", "/authorize"): return try authorize(request)
        case ("GET", "/callback"): return callback(request)
        case ("POST", "/signup"): return try signUp(request)
        case ("POST", "/recover"): return try recover(request)
        case ("POST", "/resend"): return try resend(request)
        case ("POST", "/verify"): return try verify(request)
        case ("GET", "/verify"): return verifyLink(request)
        case ("POST", "/logout"): return try logout(request)
        case ("GET", "/user"): return try userGet(request)
        case ("PUT", "/user"): return try userUpdate(request)
        default: return .text("404 page not found", status: 404)
        }
    }

    // MARK: - /token

    mutating func token(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        // grant_type is r.FormValue: the query (a form body would fail JSON parsing anyway).
        switch request.query("grant_type") ?? "" {
        case "password": return try passwordGrant(request)
        case "refresh_token": return try refreshGrant(request)
        case "pkce": return try pkceGrant(request)
        case "id_token": return try idTokenGrant(request)
        default: throw httpError(request, 400, "invalid_credentials", "unsupported_grant_type")
        }
    }

    mutating func passwordGrant(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(request, allowed: ["email", "phone", "password", "gotrue_meta_security"])
        let email = try string(body, "email", request)
        let phone = try string(body, "phone", request)
        let password = try string(body, "password", request) ?? ""
        if email != nil, phone != nil {
            throw httpError(
                request, 400, "validation_failed", "Only an email address or phone number should be provided on login.")
        }
        guard let email else {
            if phone != nil { throw httpError(request, 422, "phone_provider_disabled", "Phone logins are disabled") }
            throw httpError(request, 400, "validation_failed", "missing email or phone")
        }
        guard let index = users.firstIndex(where: { $0.email == email }), let stored = users[index].password,
            stored == password
        else {
            throw httpError(request, 400, "invalid_credentials", "Invalid login credentials")
        }
        guard users[index].confirmedAt != nil else {
            throw httpError(request, 400, "email_not_confirmed", "Email not confirmed")
        }
        return .json(newSession(for: users[index].id))
    }

    mutating func refreshGrant(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(request, allowed: ["refresh_token"])
        let token = try string(body, "refresh_token", request) ?? ""
        // RefreshTokenGrantParams.Validate: this server issues legacy 12-character tokens only.
        guard token.count == 12, token.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) }) else {
            throw httpError(request, 400, "validation_failed", "Refresh token is not valid")
        }
        guard var record = refreshTokens[token] else {
            throw httpError(request, 400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
        }
        guard let userID = sessions[record.sessionID] else {
            throw httpError(request, 400, "session_not_found", "Invalid Refresh Token: No Valid Session Found")
        }
        if !record.revoked {
            record.revoked = true
            refreshTokens[token] = record
            let child = newRefreshToken(session: record.sessionID, parent: token)
            return .json(sessionBody(userID: userID, sessionID: record.sessionID, refreshToken: child))
        }
        // Revoked: the parent of the active token means "the client could not store the result".
        if let active = refreshTokens.first(where: { $0.value.sessionID == record.sessionID && !$0.value.revoked }),
            active.value.parent == token
        {
            return .json(sessionBody(userID: userID, sessionID: record.sessionID, refreshToken: active.key))
        }
        // Reuse outside the allowance (interval 0): revoke the whole family.
        for (key, value) in refreshTokens where value.sessionID == record.sessionID {
            refreshTokens[key]?.revoked = true
        }
        throw httpError(request, 400, "refresh_token_already_used", "Invalid Refresh Token: Already Used")
    }

    mutating func pkceGrant(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(request, allowed: ["auth_code", "code_verifier"])
        let code = try string(body, "auth_code", request) ?? ""
        let verifier = try string(body, "code_verifier", request) ?? ""
        guard !code.isEmpty, !verifier.isEmpty else {
            throw httpError(
                request, 400, "validation_failed",
                "invalid request: both auth code and code verifier should be non-empty")
        }
        guard let index = flowStates.firstIndex(where: { $0.authCode == code }), flowStates[index].codeIssued,
            let userID = flowStates[index].userID
        else {
            throw httpError(request, 404, "flow_state_not_found", "invalid flow state, no valid flow state found")
        }
        let flow = flowStates[index]
        if now.timeIntervalSince(flow.createdAt) > Self.flowStateLifetime {
            throw httpError(request, 422, "flow_state_expired", "invalid flow state, flow state has expired")
        }
        let matches: Bool
        switch flow.method {
        case "s256": matches = PKCE.challenge(for: verifier) == flow.challenge
        case "plain": matches = verifier == flow.challenge
        default: throw httpError(request, 400, "bad_code_verifier", "code challenge method not supported")
        }
        guard matches else {
            throw httpError(
                request, 400, "bad_code_verifier", "code challenge does not match previously saved code verifier")
        }
        flowStates.remove(at: index)
        return .json(newSession(for: userID))
    }

    mutating func idTokenGrant(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(
            request,
            allowed: [
                "id_token", "access_token", "nonce", "provider", "client_id", "issuer", "link_identity",
                "gotrue_meta_security",
            ])
        let idToken = try string(body, "id_token", request) ?? ""
        let provider = try string(body, "provider", request) ?? ""
        let nonce = try string(body, "nonce", request) ?? ""
        _ = try string(body, "access_token", request)
        guard !idToken.isEmpty else { throw oauthError("invalid request", "id_token required") }
        guard !provider.isEmpty else {
            throw oauthError("invalid request", "provider or client_id and issuer required")
        }
        guard let issuer = GoTrueServer.issuers[provider] else {
            throw httpError(request, 400, "validation_failed", "Custom OIDC provider \"\(provider)\" not allowed")
        }
        guard let claims = GoTrueServer.claims(of: idToken), claims["iss"] as? String == issuer else {
            throw oauthError("invalid request", "Bad ID token")
        }
        guard let sub = claims["sub"] as? String, !sub.isEmpty else {
            throw oauthError("invalid request", "Missing sub claim in id_token")
        }
        let tokenNonce = claims["nonce"] as? String ?? ""
        if nonce.isEmpty != tokenNonce.isEmpty {
            throw oauthError("invalid request", "Passed nonce and nonce in id_token should either both exist or not.")
        }
        if !nonce.isEmpty, GoTrueServer.sha256Hex(nonce) != tokenNonce, nonce != tokenNonce {
            throw oauthError("invalid nonce", "Nonces mismatch")
        }
        let email = claims["email"] as? String ?? "\(sub)@\(provider).invalid"
        let userID =
            users.first(where: { $0.email == email })?.id
            ?? createUser(email: email, password: nil, provider: provider, confirmed: true, name: nil)
        return .json(newSession(for: userID))
    }

    // MARK: - OAuth in the browser

    mutating func authorize(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let provider = request.query("provider") ?? ""
        guard ["google", "github", "apple"].contains(provider) else {
            throw httpError(
                request, 400, "validation_failed", "Unsupported provider: provider \(provider) could not be found")
        }
        let challenge = request.query("code_challenge") ?? ""
        let method = (request.query("code_challenge_method") ?? "").lowercased()
        guard challenge.isEmpty == method.isEmpty else {
            throw httpError(
                request, 400, "validation_failed", "PKCE flow requires code_challenge_method and code_challenge")
        }
        if !challenge.isEmpty {
            guard (43...128).contains(challenge.count),
                challenge.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._~-".contains($0)) })
            else {
                throw httpError(request, 400, "validation_failed", "code challenge does not match the required format")
            }
            guard ["s256", "plain"].contains(method) else {
                throw httpError(request, 400, "validation_failed", "code challenge method not supported")
            }
        }
        let flow = FlowState(
            id: Self.uuid(), authCode: Self.uuid(), challenge: challenge, method: method, provider: provider,
            authenticationMethod: "oauth", redirectTo: allowedRedirect(request.query("redirect_to")), userID: nil,
            codeIssued: false, callbackUsed: false, createdAt: now)
        flowStates.append(flow)
        let location =
            base.absoluteString + "/provider/authorize?"
            + Self.encode([
                ("client_id", "google-client"), ("redirect_uri", base.absoluteString + "/auth/v1/callback"),
                ("response_type", "code"), ("state", flow.id),
            ])
        return .redirect(to: location)
    }

    /// The fake external provider (Google): consents or cancels, then returns to GoTrue's callback.
    func providerAuthorize(_ request: RecordedRequest) -> TestResponse {
        let callback = request.query("redirect_uri") ?? ""
        let state = request.query("state") ?? ""
        switch providerDecision {
        case .consent:
            return .redirect(
                to: callback + "?" + Self.encode([("code", "google-code-" + Self.uuid()), ("state", state)]))
        case .cancel:
            return .redirect(
                to: callback + "?"
                    + Self.encode([
                        ("error", "access_denied"), ("error_description", "The user denied access"), ("state", state),
                    ]))
        }
    }

    mutating func callback(_ request: RecordedRequest) -> TestResponse {
        guard let state = request.query("state"), !state.isEmpty else {
            return siteError("bad_oauth_callback", "OAuth state parameter missing")
        }
        guard let index = flowStates.firstIndex(where: { $0.id == state }) else {
            return siteError("bad_oauth_state", "OAuth state not found or expired")
        }
        if now.timeIntervalSince(flowStates[index].createdAt) > Self.flowStateLifetime {
            return siteError("bad_oauth_state", "OAuth state has expired")
        }
        if flowStates[index].callbackUsed {
            return siteError("flow_state_already_used", "State has already been used")
        }
        flowStates[index].callbackUsed = true
        let redirect = flowStates[index].redirectTo
        if let error = request.query("error") {
            // The provider's own error is re-emitted as an OAuthError: no error_code; query and fragment.
            let pairs = [("error", error), ("error_description", request.query("error_description") ?? "")]
            return .redirect(to: Self.appending(pairs, to: redirect) + "#" + Self.encode(pairs + [("sb", "")]))
        }
        guard case .consent(let email, let name) = providerDecision else {
            return siteError("bad_oauth_callback", "unexpected callback")
        }
        let userID =
            users.first(where: { $0.email == email })?.id
            ?? createUser(
                email: email, password: nil, provider: flowStates[index].provider, confirmed: true, name: name)
        flowStates[index].userID = userID
        flowStates[index].codeIssued = true
        return .redirect(to: Self.appending([("code", flowStates[index].authCode)], to: redirect))
    }

    func siteError(_ code: String, _ description: String) -> TestResponse {
        .redirect(
            to: siteURL + "?"
                + Self.encode([("error", "invalid_request"), ("error_code", code), ("error_description", description)]),
            status: 303)
    }

    // MARK: - Email flows

    mutating func signUp(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(
            request,
            allowed: [
                "email", "phone", "password", "data", "channel", "code_challenge", "code_challenge_method",
                "gotrue_meta_security",
            ])
        let email = try string(body, "email", request)
        let phone = try string(body, "phone", request)
        let password = try string(body, "password", request) ?? ""
        let challenge = try pkcePair(body, request)
        guard let email else {
            if phone != nil { throw httpError(request, 422, "phone_provider_disabled", "Phone signups are disabled") }
            throw httpError(request, 422, "anonymous_provider_disabled", "Anonymous sign-ins are disabled")
        }
        guard !password.isEmpty else {
            throw httpError(request, 400, "validation_failed", "Signup requires a valid password")
        }
        guard email.contains("@") else {
            throw httpError(request, 400, "validation_failed", "Unable to validate email address: invalid format")
        }
        guard password.count >= Self.minimumPasswordLength else {
            throw weakPassword(request)
        }
        if let existing = users.firstIndex(where: { $0.email == email }) {
            if users[existing].confirmedAt != nil {
                if autoconfirm { throw httpError(request, 422, "user_already_exists", "User already registered") }
                // Obfuscated: a fake user, so that sign-up does not reveal who has an account.
                var fake = users[existing]
                fake.id = Self.uuid()
                return .json(userJSON(fake, identities: false))
            }
            users[existing].password = password
            sendEmail(to: existing, type: "signup", redirect: request.query("redirect_to"), challenge: challenge)
            return .json(userJSON(users[existing]))
        }
        let id = createUser(email: email, password: password, provider: "email", confirmed: autoconfirm, name: nil)
        if autoconfirm { return .json(newSession(for: id)) }
        let index = users.firstIndex { $0.id == id }!
        sendEmail(to: index, type: "signup", redirect: request.query("redirect_to"), challenge: challenge)
        return .json(userJSON(users[index]))
    }

    mutating func recover(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(
            request, allowed: ["email", "code_challenge", "code_challenge_method", "gotrue_meta_security"])
        let email = try string(body, "email", request) ?? ""
        let challenge = try pkcePair(body, request)
        guard !email.isEmpty else {
            throw httpError(request, 400, "validation_failed", "Password recovery requires an email")
        }
        if let index = users.firstIndex(where: { $0.email == email }) {
            users[index].recoverySentAt = now
            sendEmail(to: index, type: "recovery", redirect: request.query("redirect_to"), challenge: challenge)
        }
        return .json([String: Any]())
    }

    mutating func resend(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(
            request,
            allowed: ["type", "email", "phone", "code_challenge", "code_challenge_method", "gotrue_meta_security"])
        let type = try string(body, "type", request) ?? ""
        let email = try string(body, "email", request)
        let phone = try string(body, "phone", request)
        let challenge = try pkcePair(body, request)
        guard ["signup", "email_change", "sms", "phone_change"].contains(type) else {
            throw httpError(
                request, 400, "validation_failed", "Missing one of these types: signup, email_change, sms, phone_change"
            )
        }
        if email != nil, phone != nil {
            throw httpError(
                request, 400, "validation_failed", "Only an email address or phone number should be provided.")
        }
        if ["signup", "email_change"].contains(type), email == nil {
            throw httpError(request, 400, "validation_failed", "Type provided requires an email address")
        }
        if type == "signup", let index = users.firstIndex(where: { $0.email == email }), users[index].confirmedAt == nil
        {
            sendEmail(to: index, type: "signup", redirect: request.query("redirect_to"), challenge: challenge)
        }
        return .json([String: Any]())
    }

    mutating func verify(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(request, allowed: ["type", "token", "token_hash", "email", "phone", "redirect_to"])
        let type = try string(body, "type", request) ?? ""
        let token = try string(body, "token", request) ?? ""
        let tokenHash = try string(body, "token_hash", request) ?? ""
        let email = try string(body, "email", request) ?? ""
        let phone = try string(body, "phone", request) ?? ""
        guard !type.isEmpty else {
            throw httpError(request, 400, "validation_failed", "Verify requires a verification type")
        }
        guard !token.isEmpty || !tokenHash.isEmpty else {
            throw httpError(request, 400, "validation_failed", "Verify requires either a token or a token hash")
        }
        if !tokenHash.isEmpty, !token.isEmpty || !email.isEmpty || !phone.isEmpty {
            throw httpError(request, 400, "validation_failed", "Only the token_hash and type should be provided")
        }
        let types = ["signup", "invite", "recovery", "magiclink", "email_change", "email", "sms", "phone_change"]
        guard types.contains(type) else {
            throw httpError(request, 400, "validation_failed", "Unsupported verification type")
        }
        let accepts: (OTP) -> Bool = { otp in
            !otp.used && (otp.type == type || (type == "email" && ["signup", "magiclink"].contains(otp.type)))
        }
        let index: Int?
        if tokenHash.isEmpty {
            guard !email.isEmpty, phone.isEmpty else {
                throw httpError(
                    request, 400, "validation_failed",
                    "Only an email address or phone number should be provided on verify")
            }
            index = otps.firstIndex { accepts($0) && $0.email == email && $0.token == token }
            guard index != nil else { throw httpError(request, 403, "otp_expired", "Token has expired or is invalid") }
        } else {
            index = otps.firstIndex { accepts($0) && $0.tokenHash == tokenHash }
            guard index != nil else {
                throw httpError(request, 403, "otp_expired", "Email link is invalid or has expired")
            }
        }
        otps[index!].used = true
        let user = users.firstIndex { $0.email == otps[index!].email }!
        users[user].confirmedAt = users[user].confirmedAt ?? now
        return .json(newSession(for: users[user].id))
    }

    /// `GET /verify` from an email link: 303 to the app with `?code=` (PKCE) or the session in the fragment.
    mutating func verifyLink(_ request: RecordedRequest) -> TestResponse {
        let type = request.query("type") ?? ""
        let token = request.query("token") ?? ""
        let redirect = allowedRedirect(request.query("redirect_to"))
        let isPKCE = token.hasPrefix("pkce_")
        let hash = isPKCE ? String(token.dropFirst(5)) : token
        guard let index = otps.firstIndex(where: { !$0.used && $0.type == type && $0.tokenHash == hash }) else {
            let pairs = [
                ("error", "access_denied"), ("error_code", "otp_expired"),
                ("error_description", "Email link is invalid or has expired"),
            ]
            let query = isPKCE ? Self.appending(pairs, to: redirect) : redirect
            return .redirect(to: query + "#" + Self.encode(pairs + [("sb", "")]), status: 303)
        }
        otps[index].used = true
        let user = users.firstIndex { $0.email == otps[index].email }!
        users[user].confirmedAt = users[user].confirmedAt ?? now
        if isPKCE, let flowID = otps[index].flowStateID, let flow = flowStates.firstIndex(where: { $0.id == flowID }) {
            flowStates[flow].codeIssued = true
            return .redirect(to: Self.appending([("code", flowStates[flow].authCode)], to: redirect), status: 303)
        }
        let session = newSession(for: users[user].id)
        let pairs: [(String, String)] = [
            ("access_token", session["access_token"] as! String), ("expires_at", "\(session["expires_at"]!)"),
            ("expires_in", "3600"), ("refresh_token", session["refresh_token"] as! String), ("token_type", "bearer"),
            ("type", type),
        ]
        return .redirect(to: redirect + "#" + Self.encode(pairs), status: 303)
    }

    /// Records an email with a code, a hash and a link; with a PKCE challenge, a flow state for the link.
    mutating func sendEmail(to index: Int, type: String, redirect: String?, challenge: (String, String)?) {
        let token = String(format: "%06d", Int.random(in: 0..<1_000_000))
        let tokenHash = GoTrueServer.sha256Hex(users[index].email + token)
        let target = allowedRedirect(redirect)
        var flowID: String?
        if let (challenge, method) = challenge {
            let flow = FlowState(
                id: Self.uuid(), authCode: Self.uuid(), challenge: challenge, method: method, provider: "email",
                authenticationMethod: type, redirectTo: target, userID: users[index].id, codeIssued: false,
                callbackUsed: false, createdAt: now)
            flowStates.append(flow)
            flowID = flow.id
        }
        otps.append(
            OTP(
                email: users[index].email, type: type, token: token, tokenHash: tokenHash, used: false,
                flowStateID: flowID))
        if type == "signup" { users[index].confirmationSentAt = now }
        let linkToken = flowID == nil ? tokenHash : "pkce_" + tokenHash
        let link = URL(
            string: base.absoluteString + "/auth/v1/verify?"
                + Self.encode([("token", linkToken), ("type", type), ("redirect_to", target)]))!
        outbox.append(
            GoTrueServer.Email(to: users[index].email, type: type, token: token, tokenHash: tokenHash, link: link))
    }

    /// `code_challenge` and `code_challenge_method`: both or neither (pkce.go).
    func pkcePair(_ body: [String: Any], _ request: RecordedRequest) throws(Reject) -> (String, String)? {
        let challenge = try string(body, "code_challenge", request) ?? ""
        let method = (try string(body, "code_challenge_method", request) ?? "").lowercased()
        guard challenge.isEmpty == method.isEmpty else {
            throw httpError(
                request, 400, "validation_failed", "PKCE flow requires code_challenge_method and code_challenge")
        }
        if challenge.isEmpty { return nil }
        guard (43...128).contains(challenge.count), ["s256", "plain"].contains(method) else {
            throw httpError(request, 400, "validation_failed", "code challenge does not match the required format")
        }
        return (challenge, method)
    }

    // MARK: - Authenticated routes

    mutating func logout(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let access = try authenticate(request)
        let scope = request.query("scope") ?? ""
        let doomed: [String]
        switch scope {
        case "", "global": doomed = sessions.filter { $0.value == access.userID }.map(\.key)
        case "local": doomed = [access.sessionID]
        case "others": doomed = sessions.filter { $0.value == access.userID && $0.key != access.sessionID }.map(\.key)
        default: throw httpError(request, 400, "validation_failed", "Unsupported logout scope \"\(scope)\"")
        }
        for id in doomed {
            sessions[id] = nil
            refreshTokens = refreshTokens.filter { $0.value.sessionID != id }
        }
        return TestResponse(status: 204)
    }

    mutating func userGet(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let access = try authenticate(request)
        return .json(userJSON(users.first { $0.id == access.userID }!))
    }

    mutating func userUpdate(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let access = try authenticate(request)
        let body = try jsonBody(
            request,
            allowed: [
                "email", "phone", "password", "current_password", "nonce", "data", "app_metadata", "channel",
                "code_challenge", "code_challenge_method",
            ])
        let index = users.firstIndex { $0.id == access.userID }!
        if let password = try string(body, "password", request) {
            guard password.count >= Self.minimumPasswordLength else { throw weakPassword(request) }
            if password == users[index].password {
                throw httpError(
                    request, 422, "same_password", "New password should be different from the old password.")
            }
            users[index].password = password
        }
        if let email = try string(body, "email", request), email != users[index].email {
            if users.contains(where: { $0.email == email }) {
                throw httpError(
                    request, 422, "email_exists", "A user with this email address has already been registered")
            }
        }
        users[index].updatedAt = now
        return .json(userJSON(users[index]))
    }

    /// `requireAuthentication`: a bearer token of a live session.
    func authenticate(_ request: RecordedRequest) throws(Reject) -> AccessRecord {
        guard let header = request.header("Authorization"), let space = header.firstIndex(of: " "),
            header[..<space].lowercased() == "bearer"
        else {
            throw httpError(request, 401, "no_authorization", "This endpoint requires a valid Bearer token")
        }
        let token = String(header[header.index(after: space)...])
        guard !token.isEmpty, !token.contains(" "), let access = accessTokens[token] else {
            throw httpError(
                request, 403, "bad_jwt", "invalid JWT: unable to parse or verify signature, token is malformed")
        }
        guard access.expiresAt > now else {
            throw httpError(
                request, 403, "bad_jwt",
                "invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired")
        }
        guard sessions[access.sessionID] != nil else {
            throw httpError(request, 403, "session_not_found", "Session from session_id claim in JWT does not exist")
        }
        return access
    }

    // MARK: - Sessions and users

    mutating func createUser(email: String, password: String?, provider: String, confirmed: Bool, name: String?)
        -> String
    {
        let id = Self.uuid()
        users.append(
            UserRecord(
                id: id, email: email, password: password, provider: provider, name: name,
                confirmedAt: confirmed ? now : nil, createdAt: now, updatedAt: now))
        return id
    }

    mutating func newSession(for userID: String) -> [String: Any] {
        let sessionID = Self.uuid()
        sessions[sessionID] = userID
        let refreshToken = newRefreshToken(session: sessionID, parent: nil)
        return sessionBody(userID: userID, sessionID: sessionID, refreshToken: refreshToken)
    }

    mutating func newRefreshToken(session: String, parent: String?) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let token = String((0..<12).map { _ in alphabet.randomElement()! })
        refreshTokens[token] = RefreshRecord(sessionID: session, parent: parent, revoked: false)
        return token
    }

    /// AccessTokenResponse, with a fresh access token.
    mutating func sessionBody(userID: String, sessionID: String, refreshToken: String) -> [String: Any] {
        let index = users.firstIndex { $0.id == userID }!
        users[index].lastSignInAt = now
        let issued = now
        let expires = issued.addingTimeInterval(3600)
        let user = users[index]
        let accessToken = GoTrueServer.jwt([
            "iss": base.absoluteString + "/auth/v1", "sub": userID, "aud": "authenticated", "role": "authenticated",
            "email": user.email, "phone": "", "session_id": sessionID, "aal": "aal1", "is_anonymous": false,
            "iat": Int(issued.timeIntervalSince1970), "exp": Int(expires.timeIntervalSince1970),
            "app_metadata": ["provider": user.provider, "providers": [user.provider]],
            "user_metadata": user.name.map { ["full_name": $0] } ?? [String: String](),
        ])
        accessTokens[accessToken] = AccessRecord(sessionID: sessionID, userID: userID, expiresAt: expires)
        return [
            "access_token": accessToken, "token_type": "bearer", "expires_in": 3600,
            "expires_at": Int(expires.timeIntervalSince1970), "refresh_token": refreshToken, "user": userJSON(user),
        ]
    }

    func userJSON(_ user: UserRecord, identities: Bool = true) -> [String: Any] {
        var json: [String: Any] = [
            "id": user.id, "aud": "authenticated", "role": "authenticated", "email": user.email, "phone": "",
            "app_metadata": ["provider": user.provider, "providers": [user.provider]],
            "user_metadata": user.name.map { ["full_name": $0, "email": user.email] } ?? [String: String](),
            "identities": identities
                ? [
                    [
                        "identity_id": Self.uuid(), "id": user.id, "user_id": user.id, "provider": user.provider,
                        "identity_data": ["sub": user.id, "email": user.email], "email": user.email,
                        "created_at": Self.timestamp(user.createdAt), "updated_at": Self.timestamp(user.updatedAt),
                    ]
                ] : [[String: Any]](),
            "created_at": Self.timestamp(user.createdAt), "updated_at": Self.timestamp(user.updatedAt),
            "is_anonymous": false,
        ]
        if let date = user.confirmedAt {
            json["email_confirmed_at"] = Self.timestamp(date)
            json["confirmed_at"] = Self.timestamp(date)
        }
        if let date = user.confirmationSentAt { json["confirmation_sent_at"] = Self.timestamp(date) }
        if let date = user.recoverySentAt { json["recovery_sent_at"] = Self.timestamp(date) }
        if let date = user.lastSignInAt { json["last_sign_in_at"] = Self.timestamp(date) }
        return json
    }

    // MARK: - Request parsing and errors

    /// `retrieveRequestParams`: a JSON object with only the declared members.
    func jsonBody(_ request: RecordedRequest, allowed: Set<String>) throws(Reject) -> [String: Any] {
        let type = request.header("Content-Type")?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
        guard type?.lowercased() == "application/json" else {
            throw httpError(
                request, 400, "bad_json", "Could not parse request body as JSON: Content-Type is not application/json")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] else {
            throw httpError(request, 400, "bad_json", "Could not parse request body as JSON: invalid JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw httpError(
                request, 400, "bad_json", "Could not parse request body as JSON: json: unknown field \"\(unknown)\"")
        }
        return object
    }

    /// A string member, `nil` when absent; any other type is a JSON error.
    func string(_ body: [String: Any], _ name: String, _ request: RecordedRequest) throws(Reject) -> String? {
        guard let value = body[name], !(value is NSNull) else { return nil }
        guard let text = value as? String else {
            throw httpError(
                request, 400, "bad_json",
                "Could not parse request body as JSON: json: cannot unmarshal into Go struct field \(name) of type string"
            )
        }
        return text
    }

    /// Whether the request asked for API version 2024-01-01 or later (apiversions.go).
    static func wantsNewErrors(_ request: RecordedRequest) -> Bool {
        guard let value = request.header("X-Supabase-Api-Version"),
            value.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil
        else { return false }
        return value >= "2024-01-01"
    }

    /// A GoTrue `HTTPError` in shape (B) for API version 2024-01-01, shape (A) otherwise.
    func httpError(
        _ request: RecordedRequest, _ status: Int, _ code: String, _ message: String, reasons: [String]? = nil
    ) -> Reject {
        var body: [String: Any]
        var headers: [(name: String, value: String)] = []
        if Self.wantsNewErrors(request) {
            body = ["code": code, "message": message]
            headers.append(("X-Supabase-Api-Version", "2024-01-01"))
            if reasons == nil { headers.append(("x-sb-error-code", code)) }
        } else {
            body = ["code": status, "error_code": code, "msg": message]
            headers.append(("x-sb-error-code", code))
        }
        if let reasons { body["weak_password"] = ["reasons": reasons] }
        return Reject(response: .json(body, status: status, headers: headers))
    }

    func weakPassword(_ request: RecordedRequest) -> Reject {
        httpError(
            request, 422, "weak_password", "Password should be at least \(Self.minimumPasswordLength) characters.",
            reasons: ["length"])
    }

    /// An OAuth error, shape (C): always 400, the same for every API version.
    func oauthError(_ error: String, _ description: String) -> Reject {
        Reject(response: .json(["error": error, "error_description": description], status: 400))
    }

    /// `redirect_to` when allow-listed (the app's scheme, or loopback), else SITE_URL (silently).
    func allowedRedirect(_ value: String?) -> String {
        guard let value, !value.isEmpty else { return siteURL }
        if value.hasPrefix("dev.example.app://") || value.hasPrefix("http://127.0.0.1") { return value }
        return siteURL
    }

    // MARK: - Helpers

    static func uuid() -> String { UUID().uuidString.lowercased() }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// Go's `url.Values.Encode` (in the given order): `+` for spaces, unreserved characters kept.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: " "): out.append("+")
            default: out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// Adds query parameters to a URL, keeping the ones it has.
    static func appending(_ pairs: [(String, String)], to url: String) -> String {
        url + (url.contains("?") ? "&" : "?") + encode(pairs)
    }
}
