import Foundation
import LatchkeyTokens

/// An HTTP request as Latchkey sends it: no cookies, no caching, no redirects followed.
public struct TransportRequest: Sendable, Hashable {
    /// The method, upper case (`GET`, `POST`, `PUT`, ...).
    public var method: String
    /// The absolute URL, query included.
    public var url: URL
    /// Header fields in the order they are sent, as pairs (a view of ``headerFields``).
    public var headers: [(name: String, value: String)] {
        get { headerFields.map { ($0.name, $0.value) } }
        set { headerFields = HTTPHeaderFields(newValue) }
    }
    /// Header fields in the order they are sent; names compare case-insensitively.
    public var headerFields: HTTPHeaderFields
    /// The body, if any.
    public var body: Data?
    /// How long to wait for the whole response, in seconds.
    public var timeout: Double

    /// Creates a request.
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The absolute URL.
    ///   - headers: Header fields in order.
    ///   - body: The body.
    ///   - timeout: The timeout in seconds (default 30).
    public init(
        method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil,
        timeout: Double = 30
    ) {
        self.method = method
        self.url = url
        self.headerFields = HTTPHeaderFields(headers)
        self.body = body
        self.timeout = timeout
    }

    /// The value of the first header with this name (case-insensitive).
    public func header(_ name: String) -> String? { headerFields[name] }

    /// Sets a header, replacing any with the same name (case-insensitive).
    public mutating func setHeader(_ name: String, _ value: String) { headerFields.set(name, value) }
}

/// An HTTP response: status, header fields and the whole body.
public struct TransportResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields in the order received, repeated fields kept (two `WWW-Authenticate` stay two).
    public var headerFields: HTTPHeaderFields
    /// The body.
    public var body: Data

    /// Header fields by lower-cased name, a repeated field by its first value (a view of ``headerFields``;
    /// read ``HTTPHeaderFields/values(for:)`` for every value of a repeated field).
    public var headers: [String: String] {
        get {
            Dictionary(headerFields.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        set { headerFields = HTTPHeaderFields(newValue.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }) }
    }

    /// Creates a response.
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: Header fields (names are lower-cased).
    ///   - body: The body.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headerFields = HTTPHeaderFields(headers.sorted { $0.key < $1.key }.map { ($0.key.lowercased(), $0.value) })
        self.body = body
    }

    /// Creates a response with header fields in order, repeated fields kept.
    /// - Parameters:
    ///   - status: The status code.
    ///   - headerFields: The header fields.
    ///   - body: The body.
    public init(status: Int, headerFields: HTTPHeaderFields, body: Data = Data()) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }

    /// The value of the first header field with this name (case-insensitive).
    public func header(_ name: String) -> String? { headerFields[name] }
}

/// Sends HTTP requests. Implementations must never follow redirects: a 3xx is returned as it is.
///
/// Latchkey ships ``URLSessionHTTPTransport``; tests use it against a real server on 127.0.0.1. It asks for
/// `Accept-Encoding: identity` and refuses a compressed response (`invalid_response`), so that its size cap
/// counts the bytes that arrive; an app's own transport should do the same. Whatever an app's transport throws
/// is redacted (the codes, verifiers, passwords and tokens the request carried are cut out) before an app sees it.
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns the whole response.
    /// - Parameter request: The request.
    /// - Returns: The response, whatever its status.
    /// - Throws: ``AuthError`` with kind `transport` (`network_error`, `timeout`, `response_too_large`), or
    ///   `invalid_response` for a response it refuses (a content coding).
    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse
}
