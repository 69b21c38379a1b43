import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// The parameters of a callback URL, read from the query, the fragment or both as the provider says.
///
/// A `form_post` callback arrives as a POST body; whoever received it (the loopback server,
/// ``AuthClient/handleCallback(formBody:redirectURI:)``, a test browser) hands the runtime the redirect URI
/// with that body as its query, so `form_post` reads the query.
struct CallbackParameters: Sendable {
    private(set) var values: [String: String] = [:]

    /// Reads the parameters.
    /// - Throws: `invalid_callback` for a repeated parameter, a malformed escape, or a parameter that
    ///   the query and the fragment both carry with different values.
    init(url: URL, location: CallbackSpec.Location, provider: String) throws(AuthError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw AuthError(.invalidCallback, "The callback URL cannot be parsed.", provider: provider)
        }
        let query = try Self.parse(components.percentEncodedQuery, provider: provider)
        let fragment = try Self.parse(components.percentEncodedFragment, provider: provider)
        switch location {
        case .query, .formPost: values = query
        case .fragment: values = fragment
        case .queryOrFragment:
            values = query
            for (name, value) in fragment {
                if let existing = values[name], existing != value {
                    throw AuthError(
                        .invalidCallback, "The callback carries '\(name)' twice with different values.",
                        provider: provider)
                }
                values[name] = value
            }
        }
    }

    /// The value of a parameter, `nil` when absent or empty.
    subscript(name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    private static func parse(_ text: String?, provider: String) throws(AuthError) -> [String: String] {
        guard let text, !text.isEmpty else { return [:] }
        var out: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentEncoding.decode(pieces[0], plusIsSpace: true),
                let value = PercentEncoding.decode(pieces.count > 1 ? pieces[1] : "", plusIsSpace: true)
            else {
                throw AuthError(.invalidCallback, "The callback has a malformed parameter.", provider: provider)
            }
            guard out[name] == nil else {
                throw AuthError(.invalidCallback, "The callback repeats the parameter '\(name)'.", provider: provider)
            }
            out[name] = value
        }
        return out
    }
}
