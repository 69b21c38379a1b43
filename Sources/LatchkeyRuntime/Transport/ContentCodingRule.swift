import Foundation
import LatchkeyTokens

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Responses come as they are on the wire, never compressed (RFC 9110 §8.4, §12.5.3).
///
/// Every request says `Accept-Encoding: identity`, and a response that names any content coding anyway is
/// refused as soon as its head arrives: a body that inflates after the size cap was checked (a few KiB of
/// `gzip, gzip` can inflate to a GiB) would defeat the cap.
enum ContentCodingRule {
    /// The value sent in every request's `Accept-Encoding` field.
    static let acceptEncoding = "identity"

    /// Whether a response names a content coding other than `identity`: a `Content-Encoding` field absent,
    /// empty or made only of `identity` is accepted, anything else refused.
    static func refuses(_ response: HTTPURLResponse) -> Bool {
        guard let value = contentEncoding(of: response) else { return false }
        return !accepts(value)
    }

    /// Whether a `Content-Encoding` value leaves the body as it is (every listed coding is `identity`).
    static func accepts(_ value: String) -> Bool {
        value.split(separator: ",").allSatisfy {
            let coding = $0.trimmingCharacters(in: .whitespaces)
            return coding.isEmpty || coding.lowercased() == "identity"
        }
    }

    /// The error for a refused response: `invalid_response`, naming the coding (quoted safely) and the status.
    static func refusal(_ response: HTTPURLResponse?, label: String) -> AuthError {
        refusal(coding: response.flatMap(contentEncoding(of:)), status: response?.statusCode, label: label)
    }

    /// The error for a refused response, from its `Content-Encoding` value and status.
    static func refusal(coding: String?, status: Int?, label: String) -> AuthError {
        let quoted = coding.map { MessageText.quoted($0, limit: 32) } ?? "a coding"
        return AuthError(
            .invalidResponse,
            "\(label) answered with Content-Encoding \(quoted) although the request accepted only identity; "
                + "the body was not read",
            status: status)
    }

    private static func contentEncoding(of response: HTTPURLResponse) -> String? {
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, HTTPHeaderFields.names(name, match: "Content-Encoding") {
                return (value as? String) ?? "\(value)"
            }
        }
        return nil
    }
}
