import Foundation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// The transports the wire tests run against: URLSession, and the platform's default (libcurl on Linux, the
/// same URLSession transport elsewhere).
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case platformDefault

    /// A new transport of this kind.
    func make(maximumResponseBytes: Int = URLSessionHTTPTransport.defaultMaximumResponseBytes) -> any HTTPTransport {
        switch self {
        case .urlSession: URLSessionHTTPTransport(maximumResponseBytes: maximumResponseBytes)
        case .platformDefault: AuthClientOptions.defaultTransport(maximumResponseBytes: maximumResponseBytes)
        }
    }

    var testDescription: String {
        switch self {
        case .urlSession: "URLSession"
        case .platformDefault: "platform default"
        }
    }
}
