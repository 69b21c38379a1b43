import Foundation
@_spi(Generated) import LatchkeyTesting

/// The server's data (users, sessions, tokens, flow states, emails) and its routing table; the handlers live
/// in the `GoTrueState+…` extensions, one concern each.
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
        var phone = ""
        var isAnonymous = false
        /// `user_metadata` as sent in `data` (JSON), merged over the name.
        var metadata: Data?
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
    /// How many of the next sessions are issued already expired (`expires_in: -60`, `expires_at` and `exp` a
    /// minute before issue).
    var expiredIssues = 0
    var providerDecision = GoTrueServer.ProviderDecision.consent(email: "ada@example.com", name: "Ada Lovelace")
    var users: [UserRecord] = []
    var sessions: [String: String] = [:]  // session id → user id
    var refreshTokens: [String: RefreshRecord] = [:]
    var accessTokens: [String: AccessRecord] = [:]
    var flowStates: [FlowState] = []
    var otps: [OTP] = []
    var outbox: [GoTrueServer.Email] = []
    var failures: [String: [GoTrueServer.Failure]] = [:]
    /// SMS and WhatsApp messages sent, oldest first.
    var messages: [GoTrueServer.Message] = []
    /// Reauthentication nonces by user id (`GET /reauthenticate`).
    var nonces: [String: String] = [:]
    /// Every `gotrue_meta_security.captcha_token` received, in order.
    var captchaTokens: [String] = []
    /// MFA factors and challenges, passkeys, and the access-token signing key (`GoTrueState+MFA.swift`).
    var subClients = GoTrueSubClientState()
    /// The admin API's and OAuth server's data (`GoTrueState+Admin.swift`).
    var admin = GoTrueAdminData()
    /// Linked identities, SSO providers and link flows (`GoTrueState+Identities.swift`).
    var calls = GoTrueCallsState()

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
        case ("POST", "/otp"): return try otp(request)
        case ("POST", "/verify"): return try verify(request)
        case ("GET", "/verify"): return verifyLink(request)
        case ("POST", "/logout"): return try logout(request)
        case ("GET", "/user"): return try userGet(request)
        case ("PUT", "/user"): return try userUpdate(request)
        case ("GET", "/reauthenticate"): return try reauthenticate(request)
        case (_, let route) where Self.isSubClientRoute(route): return try subClientRoute(request, route)
        // Identities and SSO (GoTrueState+Identities.swift, GoTrueState+SSO.swift).
        case ("GET", "/user/identities/authorize"): return try linkIdentityAuthorize(request)
        case ("DELETE", _) where route.hasPrefix("/user/identities/"):
            return try unlinkIdentity(request, id: String(route.dropFirst("/user/identities/".count)))
        case ("POST", "/sso"): return try sso(request)
        default: return try adminRoute(route, request) ?? .text("404 page not found", status: 404)
        }
    }
}
