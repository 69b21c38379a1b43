import Foundation
import LatchkeyRuntime

/// A request as ``TestHTTPServer`` received it.
public struct RecordedRequest: Sendable {
    /// The method, as sent.
    public let method: String
    /// The raw request target (path and query, as sent).
    public let target: String
    /// The path, without the query, as sent (not percent-decoded).
    public let path: String
    /// The raw query string (after `?`), or `nil` when there is none.
    public let rawQuery: String?
    /// The query items in order, percent-decoded (`+` decodes to a space, as on real servers).
    public let queryItems: [(name: String, value: String)]
    /// The header fields in order, names as sent.
    public let headers: [(name: String, value: String)]
    /// The body (de-chunked when it was sent chunked).
    public let body: Data

    /// Creates a recorded request.
    /// - Parameters:
    ///   - method: The method.
    ///   - target: The request target.
    ///   - headers: The header fields.
    ///   - body: The body.
    public init(method: String, target: String, headers: [(name: String, value: String)], body: Data) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        let mark = target.firstIndex(of: "?")
        self.path = String(target[..<(mark ?? target.endIndex)])
        self.rawQuery = mark.map { String(target[target.index(after: $0)...]) }
        self.queryItems = rawQuery.map(FormEncoding.decode) ?? []
    }

    /// The first value of a header (case-insensitive name).
    /// - Parameter name: The header name.
    public func header(_ name: String) -> String? { headerFields[name] }

    /// Every value of a header (case-insensitive name), in order.
    /// - Parameter name: The header name.
    public func headerValues(_ name: String) -> [String] { headerFields.values(for: name) }

    /// The header fields in order, repeated fields kept, names compared case-insensitively.
    public var headerFields: HTTPHeaderFields { HTTPHeaderFields(headers) }

    /// The first value of a query item.
    /// - Parameter name: The item name.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The body as UTF-8 text, or `nil` when it is not valid UTF-8.
    public var bodyText: String? {
        String(data: body, encoding: .utf8)
    }

    /// The body parsed as JSON, or `nil` when it is not JSON.
    public var jsonBody: Any? {
        try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
    }

    /// The body's form items in order (`application/x-www-form-urlencoded`).
    public var formItems: [(name: String, value: String)] {
        bodyText.map(FormEncoding.decode) ?? []
    }

    /// The body's form fields; for a repeated name, the first value.
    public var formBody: [String: String] {
        Dictionary(formItems.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
