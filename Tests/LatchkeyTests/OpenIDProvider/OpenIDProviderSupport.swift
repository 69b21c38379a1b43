import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The real OpenID provider of `ci-oidc/` (django-oauth-toolkit), as CI starts it.
///
/// Locally, without `LATCHKEY_OIDC_ISSUER`, the integration tests are skipped. In CI (`CI=true`) they
/// always run, so a missing or unreachable provider fails them instead of skipping them silently.
enum RealProvider {
    static let environment = ProcessInfo.processInfo.environment
    /// `LATCHKEY_OIDC_ISSUER`, e.g. `http://127.0.0.1:9400/o`.
    static let issuerText = environment["LATCHKEY_OIDC_ISSUER"].flatMap { $0.isEmpty ? nil : $0 }
    /// Whether this is CI.
    static let isCI = environment["CI"] == "true"
    /// Whether the integration tests run: an issuer is configured, or this is CI (where a missing one fails).
    static let isEnabled = issuerText != nil || isCI

    static let publicClient = "latchkey-public"
    static let deviceClient = "latchkey-device"
    static let username = "ada"
    static let password = "latchkey-test-password"
    static let customRedirect = URL(string: "dev.latchkey.test://auth-callback")!

    /// The issuer; fails the test when it is not configured (only reachable in CI without one).
    static func issuer(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let text = try #require(
            issuerText, "CI=true but LATCHKEY_OIDC_ISSUER is not set: the real provider must run in CI",
            sourceLocation: sourceLocation)
        return try #require(
            URL(string: text), "LATCHKEY_OIDC_ISSUER is not a URL: \(text)", sourceLocation: sourceLocation)
    }

    /// `http://127.0.0.1:PORT`, the provider's origin.
    static func origin() throws -> String {
        let issuer = try issuer()
        return "\(issuer.scheme ?? "http")://\(issuer.host ?? "127.0.0.1")" + (issuer.port.map { ":\($0)" } ?? "")
    }
}

/// Counts and records what an ``AuthClient`` sends, and lets a test rewrite responses.
final class OIDCRecordingTransport: HTTPTransport {
    struct Entry: Sendable {
        var request: TransportRequest
        var response: TransportResponse?
        var error: AuthError?

        /// The form body of the request.
        var form: [String: String] { OIDCFormFields.decode(request.body) }
        /// The JSON body of the response.
        var json: [String: Any] {
            (response?.body).flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any] ?? [:]
        }
    }

    private let base: any HTTPTransport
    private let entries = Watched<[Entry]>([])
    private let rewrite: @Sendable (TransportRequest, TransportResponse) -> TransportResponse

    init(
        base: any HTTPTransport = URLSessionHTTPTransport(),
        rewrite: @escaping @Sendable (TransportRequest, TransportResponse) -> TransportResponse = { $1 }
    ) {
        self.base = base
        self.rewrite = rewrite
    }

    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        do {
            let response = rewrite(request, try await base.send(request))
            entries.update { $0.append(Entry(request: request, response: response)) }
            return response
        } catch {
            entries.update { $0.append(Entry(request: request, error: error)) }
            throw error
        }
    }

    /// Everything sent so far.
    var all: [Entry] { entries.value }
    /// The requests to a path (`/o/token/`, ...).
    func to(_ path: String) -> [Entry] { all.filter { $0.request.url.rawPath == path } }
    /// The token requests.
    var tokenRequests: [Entry] { to("/o/token/") }
    /// Forgets what was recorded.
    func reset() { entries.update { $0.removeAll() } }

    /// Waits, without polling, until the token requests recorded so far satisfy `condition` (or the waiting task
    /// is cancelled: the suite's time limit); returns whether they do.
    func tokenRequests(until condition: @escaping @Sendable ([Entry]) -> Bool) async -> Bool {
        let isToken: @Sendable (Entry) -> Bool = { $0.request.url.rawPath == "/o/token/" }
        await entries.wait { condition($0.filter(isToken)) }
        return condition(tokenRequests)
    }
}

/// Form decoding for recorded request bodies.
enum OIDCFormFields {
    static func decode(_ body: Data?) -> [String: String] {
        guard let body, let text = String(data: body, encoding: .utf8) else { return [:] }
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if out[parts[0]] == nil { out[parts[0]] = parts.count > 1 ? parts[1] : "" }
        }
        return out
    }

    static func encode(_ fields: [(String, String)]) -> Data {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return Data(
            fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1)" }
                .joined(separator: "&").utf8)
    }
}

/// A value shared with `@Sendable` closures.
final class OIDCShared<Value: Sendable>: Sendable {
    private let storage: Locked<Value>
    init(_ value: Value) { storage = Locked(value) }
    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
    func update<T>(_ body: (inout Value) -> T) -> T { storage.withLock { body(&$0) } }
}

extension URL {
    /// The path as sent, trailing slash kept (`URL.path` drops it, and every DOT endpoint has one).
    var rawPath: String { URLComponents(url: self, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? path }

    /// The first value of a query item.
    func oidcQuery(_ name: String) -> String? {
        URLComponents(url: self, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }

    /// The URL with a query item's value replaced.
    func oidcReplacingQuery(_ name: String, with value: String) -> URL {
        var components = URLComponents(url: self, resolvingAgainstBaseURL: false)!
        components.queryItems = components.queryItems?.map {
            $0.name == name ? URLQueryItem(name: name, value: value) : $0
        }
        return components.url!
    }
}

enum OIDCTest {
    /// The claims of a JWT, unverified (for assertions only).
    static func claims(_ token: String) -> [String: Any] {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return [:] }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// Expects `body` to throw an ``AuthError`` with `code`; returns it.
    @discardableResult
    static func expectError(
        _ code: AuthError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async -> AuthError? {
        let error = await #expect(throws: AuthError.self, sourceLocation: sourceLocation) { try await body() }
        #expect(
            error?.code == code, "got \(error.map(String.init(describing:)) ?? "nothing")",
            sourceLocation: sourceLocation)
        return error
    }

    /// Waits (polling, up to `seconds`) until a condition holds; returns whether it did.
    static func eventually(seconds: Double = 60, _ condition: () -> Bool) async -> Bool {
        let deadline = MonotonicInstant.now + .seconds(seconds)
        while MonotonicInstant.now < deadline {
            if condition() { return true }
            try? await LatchkeyDuration.sleep(.milliseconds(20))
        }
        return condition()
    }
}
