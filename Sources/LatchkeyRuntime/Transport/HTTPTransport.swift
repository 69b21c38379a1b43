import Foundation

/// An HTTP request as Latchkey sends it: no cookies, no caching, no redirects followed.
public struct TransportRequest: Sendable, Hashable {
    /// The method, upper case (`GET`, `POST`, `PUT`, ...).
    public var method: String
    /// The absolute URL, query included.
    public var url: URL
    /// Header fields in the order they are sent. Names compare case-insensitively on the server.
    public var headers: [(name: String, value: String)] {
        get { headerStorage.map { ($0.name, $0.value) } }
        set { headerStorage = newValue.map { Header(name: $0.name, value: $0.value) } }
    }
    /// The body, if any.
    public var body: Data?
    /// How long to wait for the whole response, in seconds.
    public var timeout: Double

    private var headerStorage: [Header]

    private struct Header: Sendable, Hashable {
        var name: String
        var value: String
    }

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
        self.headerStorage = headers.map { Header(name: $0.name, value: $0.value) }
        self.body = body
        self.timeout = timeout
    }

    /// The value of the first header with this name (case-insensitive).
    public func header(_ name: String) -> String? {
        headerStorage.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Sets a header, replacing any with the same name (case-insensitive).
    public mutating func setHeader(_ name: String, _ value: String) {
        headerStorage.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        headerStorage.append(Header(name: name, value: value))
    }
}

/// An HTTP response: status, headers (names lower-cased) and the whole body.
public struct TransportResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields, names lower-cased.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: Header fields (names are lower-cased).
    ///   - body: The body.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }

    /// A response whose header names are already lower-cased (the transport's own, built in one pass).
    init(status: Int, lowercasedHeaders headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of a header (case-insensitive).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Sends HTTP requests. Implementations must never follow redirects: a 3xx is returned as it is.
///
/// Latchkey ships ``URLSessionHTTPTransport``; tests use it against a real server on 127.0.0.1.
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns the whole response.
    /// - Parameter request: The request.
    /// - Returns: The response, whatever its status.
    /// - Throws: ``AuthError`` with kind `transport` (`network_error`, `timeout`, `response_too_large`).
    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse
}
