import Foundation
import LatchkeyTokens

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns `URLSession` failures into ``AuthError``s whose messages never contain a query string.
enum TransportErrorMapping {
    /// `METHOD scheme://host:port/path`, without user info, query or fragment (they may hold codes).
    static func label(for request: TransportRequest) -> String {
        label(method: request.method, url: request.url)
    }

    /// `METHOD scheme://host:port/path`, without user info, query or fragment (they may hold codes).
    static func label(method: String, url: URL) -> String {
        var text = "\(method) "
        if let scheme = url.scheme { text += "\(scheme)://" }
        if let host = url.host { text += host.contains(":") ? "[\(host)]" : host }
        if let port = url.port { text += ":\(port)" }
        text += url.path.isEmpty ? "/" : url.path
        return text
    }

    /// Maps a `URLSession` error.
    static func map(_ error: any Error, label: String, timeout: Double) -> AuthError {
        guard let urlError = error as? URLError else {
            return AuthError(.networkError, "\(label) failed: \(type(of: error))")
        }
        if urlError.code == .timedOut {
            return AuthError(.timeout, "\(label) timed out (no data for \(timeout) s)")
        }
        return AuthError(
            .networkError, "\(label) failed: \(describe(urlError.code)) (URLError \(urlError.code.rawValue))")
    }

    /// Describes a body shorter than its `Content-Length`, or returns `nil` when the body is whole.
    static func truncation(method: String, status: Int, headers: HTTPHeaderFields, received: Int) -> String? {
        guard method.uppercased() != "HEAD", status >= 200, status != 204, status != 304,
            headers["content-encoding"].map({ $0.lowercased() == "identity" }) ?? true,
            let declared = headers["content-length"].flatMap(contentLength),
            declared != received
        else { return nil }
        return "the connection closed after \(received) of \(declared) body bytes"
    }

    /// A `Content-Length` value as a number. The plain digits every server sends are read directly; anything
    /// else is trimmed of whitespace first, as before (`CharacterSet` trimming cost more than the rest of the
    /// response check together).
    private static func contentLength(_ value: String) -> Int? {
        if !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return Int(value)
        }
        return Int(value.trimmingCharacters(in: .whitespaces))
    }

    private static func describe(_ code: URLError.Code) -> String {
        switch code {
        case .cannotConnectToHost: "cannot connect to host"
        case .cannotFindHost, .dnsLookupFailed: "cannot resolve host"
        case .networkConnectionLost: "connection lost"
        case .notConnectedToInternet: "not connected to the internet"
        case .badServerResponse: "bad or empty server response"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired:
            "TLS failure"
        case .cancelled: "cancelled"
        case .badURL, .unsupportedURL: "unsupported URL"
        case .httpTooManyRedirects, .redirectToNonExistentLocation: "redirect failure"
        case .dataLengthExceedsMaximum: "response too large"
        default: "network failure"
        }
    }
}
