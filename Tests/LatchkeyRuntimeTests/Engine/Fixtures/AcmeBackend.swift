import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// The server side of ``AcmeSpec``: issues `at-N`/`rt-N` tokens, rotates refresh tokens and reports
/// reuse. A route can be overridden per path.
final class AcmeBackend: Sendable {
    typealias Route = @Sendable (RecordedRequest) async -> TestResponse

    private struct State {
        var issued = 0
        var liveRefreshTokens: Set<String> = []
        var usedRefreshTokens: Set<String> = []
        var liveAccessTokens: Set<String> = []
        var overrides: [String: Route] = [:]
        var expiresIn = 3600
        var rotates = true
        var refreshDelay: Double = 0
        var refreshHold: Gate?
    }

    private let state = Locked(State())
    private let refreshesArrived = Watched(0)

    /// Replaces the answer for a path.
    func override(_ path: String, _ route: @escaping Route) { state.withLock { $0.overrides[path] = route } }

    /// The lifetime put in token responses.
    func setExpiresIn(_ seconds: Int) { state.withLock { $0.expiresIn = seconds } }

    /// Whether refresh responses carry a new refresh token.
    func setRotates(_ rotates: Bool) { state.withLock { $0.rotates = rotates } }

    /// Delays refresh responses.
    func setRefreshDelay(_ seconds: Double) { state.withLock { $0.refreshDelay = seconds } }

    /// Holds every refresh response from now on until ``releaseRefreshes()``.
    func holdRefreshes() { state.withLock { $0.refreshHold = Gate() } }

    /// Lets the held refresh responses (and later ones) go.
    func releaseRefreshes() {
        let hold = state.withLock { state -> Gate? in
            defer { state.refreshHold = nil }
            return state.refreshHold
        }
        hold?.raise()
    }

    /// Returns once `count` refresh requests have reached the backend (or the waiting task is cancelled).
    func refreshesArrived(atLeast count: Int) async { await refreshesArrived.wait { $0 >= count } }

    /// Answers a request.
    func respond(_ request: RecordedRequest) async -> TestResponse {
        if let route = state.withLock({ $0.overrides[request.path] }) { return await route(request) }
        switch (request.method, request.path) {
        case ("POST", "/token"):
            let body = request.jsonBody as? [String: Any]
            guard body?["password"] as? String == "hunter2" else {
                return .json(["error_code": "invalid_credentials", "msg": "Invalid login credentials"], status: 400)
            }
            return tokens(rotating: nil)
        case ("POST", "/oauth/token"):
            return await oauthToken(request)
        case ("POST", "/logout"):
            return TestResponse(status: 204)
        case ("GET", "/user"):
            let token = request.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
            guard state.withLock({ $0.liveAccessTokens.contains(token) }) else {
                return .json(["error": "invalid_token"], status: 401)
            }
            return .json(["id": "user-1", "email": "ada@example.com", "name": "Ada"])
        case ("POST", "/recover"):
            return .json([String: String]())
        case ("GET", "/settings"):
            return .json(["external": ["google": true]])
        default:
            return .json(["error": "not_found"], status: 404)
        }
    }

    private func oauthToken(_ request: RecordedRequest) async -> TestResponse {
        let form = request.formBody
        switch form["grant_type"] {
        case "authorization_code":
            guard form["code"] == "good-code" else {
                return .json(["error": "invalid_grant", "error_description": "bad code"], status: 400)
            }
            return tokens(rotating: nil)
        case "refresh_token":
            let token = form["refresh_token"] ?? ""
            refreshesArrived.update { $0 += 1 }
            if let hold = state.withLock({ $0.refreshHold }) { await hold.wait() }
            let delay = state.withLock { $0.refreshDelay }
            if delay > 0 { try? await LatchkeyDuration.sleep(.milliseconds(Int(delay * 1000))) }
            let verdict = state.withLock { state -> String in
                if state.liveRefreshTokens.contains(token) { return "live" }
                return state.usedRefreshTokens.contains(token) ? "used" : "unknown"
            }
            switch verdict {
            case "live": return tokens(rotating: token)
            case "used": return .json(["error_code": "refresh_token_already_used", "msg": "Already Used"], status: 400)
            default:
                return .json(["error": "invalid_grant", "error_description": "unknown refresh token"], status: 400)
            }
        default:
            return .json(["error": "unsupported_grant_type"], status: 400)
        }
    }

    /// A token response with fresh tokens; `rotating` is the refresh token being replaced.
    func tokens(rotating old: String?) -> TestResponse {
        let (number, expiresIn, rotates) = state.withLock { state in
            state.issued += 1
            if let old, state.rotates {
                state.liveRefreshTokens.remove(old)
                state.usedRefreshTokens.insert(old)
            }
            if old == nil || state.rotates { state.liveRefreshTokens.insert("rt-\(state.issued)") }
            state.liveAccessTokens.insert("at-\(state.issued)")
            return (state.issued, state.expiresIn, state.rotates)
        }
        var body: [String: Any] = [
            "access_token": "at-\(number)", "token_type": "bearer", "expires_in": expiresIn,
            "user": ["id": "user-1", "email": "ada@example.com"],
        ]
        if old == nil || rotates { body["refresh_token"] = "rt-\(number)" }
        return .json(body)
    }
}

/// A clock tests move by hand: a ``ManualClock`` (which timed loops such as the automatic refresh sleep on)
/// moved in seconds.
final class MutableClock: Sendable {
    /// The clock to inject as ``AuthClientOptions/clock``.
    let manual: ManualClock

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { manual = ManualClock(start: start) }

    var now: Date { manual.now }

    func advance(_ seconds: Double) { manual.advance(by: .seconds(seconds)) }
}

/// Collects log records.
final class LogSink: Sendable {
    private let records = Watched<[LogRecord]>([])

    var all: [LogRecord] { records.value }

    var logger: @Sendable (LogRecord) -> Void { { record in self.records.update { $0.append(record) } } }

    /// Returns once a record's message contains `text` (or the waiting task is cancelled).
    func waitForRecord(containing text: String) async {
        await records.wait { $0.contains { $0.message.contains(text) } }
    }
}
