import Foundation
import LatchkeyTokens

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ``HTTPTransport`` Latchkey ships: `URLSession` with an ephemeral configuration (no cookies, no
/// cache, no credential storage), redirects never followed, a deadline per request and a cap on the
/// response size.
///
/// A 3xx response is returned as it is: the caller decides what it means. Every request says
/// `Accept-Encoding: identity` (whatever the request or the configuration set), and a response that names
/// a content coding anyway (`Content-Encoding: gzip`, ...) is refused as soon as its head arrives, so that
/// the cap counts the bytes that actually arrive: a compressed body could inflate far past it.
public final class URLSessionHTTPTransport: HTTPTransport {
    /// The default cap on a response body: 1 MiB.
    public static let defaultMaximumResponseBytes = 1 << 20

    /// The largest response body accepted, in bytes.
    public let maximumResponseBytes: Int

    private let session: URLSession
    private let tasks: TransportTaskRegistry

    /// Creates a transport with an ephemeral configuration.
    /// - Parameter maximumResponseBytes: The largest response body accepted (default 1 MiB).
    public convenience init(maximumResponseBytes: Int = URLSessionHTTPTransport.defaultMaximumResponseBytes) {
        self.init(configuration: .ephemeral, maximumResponseBytes: maximumResponseBytes)
    }

    /// Creates a transport from a configuration (for tests, proxies or custom protocol classes).
    ///
    /// Whatever the configuration says, cookies, caching and credential storage are switched off.
    /// - Parameters:
    ///   - configuration: The base configuration; it is copied, not modified.
    ///   - maximumResponseBytes: The largest response body accepted (default 1 MiB).
    public init(
        configuration: URLSessionConfiguration,
        maximumResponseBytes: Int = URLSessionHTTPTransport.defaultMaximumResponseBytes
    ) {
        precondition(maximumResponseBytes >= 0, "maximumResponseBytes must not be negative")
        let hardened = Self.harden(configuration)
        self.maximumResponseBytes = maximumResponseBytes
        self.tasks = TransportTaskRegistry()
        // A session-level delegate: it is the only place redirects can be refused on every platform
        // (swift-corelibs-foundation ignores per-task delegates).
        self.session = URLSession(
            configuration: hardened, delegate: TransportSessionDelegate(tasks: tasks), delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends a request and returns the whole response, whatever its status (3xx included).
    /// - Parameter request: The request.
    /// - Returns: The response.
    /// - Throws: ``AuthError`` `timeout` when the response did not arrive within `request.timeout` (a
    ///   negative one counts as 0; infinity, NaN and anything over a year as a year), `response_too_large`
    ///   when the body exceeds ``maximumResponseBytes`` (announced in `Content-Length` or counted as it
    ///   arrives: the request is cancelled as soon as the count passes the cap), `invalid_response` when the
    ///   response names a `Content-Encoding` other than `identity` (before its body is read), `network_error`
    ///   otherwise (including when the calling task is cancelled); `invalid_request`, with nothing sent, for a
    ///   header name that is not a token or a header with CR, LF or NUL.
    public func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        try HeaderFieldRules.check(request)
        let timeout = Self.effectiveTimeout(request.timeout)
        let task = session.dataTask(with: Self.urlRequest(for: request, timeout: timeout))
        let shielded = TransportCancellationShield.isActive
        let start = { (continuation: CheckedContinuation<Result<TransportResponse, AuthError>, Never>) in
            self.tasks.register(
                task, url: request.url, method: request.method, limit: self.maximumResponseBytes, timeout: timeout,
                continuation: continuation)
            task.resume()
        }
        // A shared refresh in its first caller's task (`TransportCancellationShield`): only the deadline ends it.
        if shielded { return try await withCheckedContinuation(start).get() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                start(continuation)
                if Task.isCancelled { tasks.cancel(task, reason: .cancelled) }
            }
        } onCancel: {
            tasks.cancel(task, reason: .cancelled)
        }
        return try result.get()
    }

    /// The longest timeout a request gets: a year. Longer ones, infinity and NaN are taken as this.
    static let longestTimeout: Double = 365 * 86_400

    /// The timeout a request is given: its own, clamped to `0...longestTimeout` (NaN and infinity count as the
    /// longest), so that no deadline or message computation meets a value it cannot represent.
    static func effectiveTimeout(_ timeout: Double) -> Double {
        guard timeout.isFinite else { return longestTimeout }
        return min(max(timeout, 0), longestTimeout)
    }

    private static func urlRequest(for request: TransportRequest, timeout: Double) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        // URLSession's own timer is an idle timeout, and swift-corelibs-foundation counts it in whole seconds,
        // truncated (0.5 s became 0, and the request failed at once). Rounded up, it never fires before the
        // request's deadline, which `TransportTaskRegistry` keeps to the millisecond.
        urlRequest.timeoutInterval = max(timeout.rounded(.up), 1)
        urlRequest.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        urlRequest.httpShouldHandleCookies = false
        // Never a compressed body (`ContentCodingRule`): identity replaces any Accept-Encoding of the request's
        // and URLSession's own default (gzip, deflate, br, zstd).
        var fields = mergedHeaderFields(
            request.headers.filter { !HTTPHeaderFields.names($0.name, match: "Accept-Encoding") })
        fields["Accept-Encoding"] = ContentCodingRule.acceptEncoding
        urlRequest.allHTTPHeaderFields = fields
        return urlRequest
    }

    /// The header fields as `URLRequest.addValue(_:forHTTPHeaderField:)` called once per header would leave
    /// them: a repeated name (compared case-insensitively) keeps its first spelling and joins the values with
    /// a comma. Built in one pass: each `addValue` copies and bridges the whole dictionary.
    static func mergedHeaderFields(_ headers: [(name: String, value: String)]) -> [String: String] {
        var fields: [String: String] = [:]
        fields.reserveCapacity(headers.count)
        var spelling: [String: String] = [:]  // lower-cased name → the name as first added
        spelling.reserveCapacity(headers.count)
        for header in headers {
            let key = header.name.lowercased()
            if let first = spelling[key], let existing = fields[first] {
                fields[first] = existing + "," + header.value
            } else {
                spelling[key] = header.name
                fields[header.name] = header.value
            }
        }
        return fields
    }

    private static func harden(_ configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        let copy = (configuration.copy() as? URLSessionConfiguration) ?? .ephemeral
        copy.httpCookieAcceptPolicy = .never
        copy.httpShouldSetCookies = false
        copy.httpCookieStorage = nil
        copy.urlCredentialStorage = nil
        copy.urlCache = nil
        copy.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        return copy
    }
}

@_spi(Generated) extension URLSessionHTTPTransport: CancellationShieldHonouringTransport {}
