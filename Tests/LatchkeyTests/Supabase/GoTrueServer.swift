import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens

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

    /// An SMS or WhatsApp message GoTrue sent.
    struct Message: Sendable {
        var to: String
        var type: String
        var channel: String
        /// The six-digit code.
        var token: String
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
    let core: GoTrueCore

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

    /// Stops the server: closes its port and connections (``TestHTTPServer/stop()`` never waits).
    func shutdown() async {
        http.stop()
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

    /// The SMS and WhatsApp messages sent, oldest first.
    var messages: [Message] { core.state.withLock { $0.messages } }

    /// The CAPTCHA tokens received in `gotrue_meta_security`, in order.
    var captchaTokens: [String] { core.state.withLock { $0.captchaTokens } }

    /// The reauthentication nonce sent to a user, by email.
    func nonce(of email: String) -> String? {
        core.state.withLock { state in state.users.first { $0.email == email }.flatMap { state.nonces[$0.id] } }
    }

    /// The user's metadata as stored (`user_metadata` without the name), by id.
    func metadata(ofUser id: String) -> [String: Any]? {
        core.state.withLock { state in
            state.users.first { $0.id == id }?.metadata.flatMap {
                (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any]
            }
        }
    }

    /// Adds a user who signs in with a phone number.
    func addPhoneUser(phone: String, password: String) {
        core.state.withLock { state in
            let id = state.createUser(email: "", password: password, provider: "phone", confirmed: true, name: nil)
            let index = state.users.firstIndex { $0.id == id }!
            state.users[index].phone = phone
        }
    }

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

    /// Emails a link in GoTrue's implicit shape (no PKCE challenge), as a sign-up, invite or recovery started
    /// from a web page or the dashboard does: opened, it returns to `redirectTo` with the session in the fragment.
    func sendImplicitLink(to email: String, type: String, redirectTo: URL) {
        core.state.withLock { state in
            guard let index = state.users.firstIndex(where: { $0.email == email }) else { return }
            state.sendEmail(to: index, type: type, redirect: redirectTo.absoluteString, challenge: nil)
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

    /// Issues the next `count` sessions already expired: `expires_in: -60`, with `expires_at` and the access
    /// token's `exp` a minute before issue.
    func issueExpiredSessions(_ count: Int) {
        core.state.withLock { $0.expiredIssues = count }
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

    /// Runs `work` (on the cooperative pool, without blocking) before answering the next request of `method` to
    /// `route` (`/user`, `/token`): the request is then on the wire. Other requests are served meanwhile.
    func before(_ method: String, _ route: String, _ work: @escaping @Sendable () async -> Void) {
        core.routeHooks.withLock { $0.append((method, route, work)) }
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
        SHA2Hash.sha256(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
