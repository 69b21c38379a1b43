import LatchkeyTokens

/// Checks the headers an app adds to every request (``AuthClientOptions/additionalHeaders``), as supabase-swift's
/// `AuthClient.Configuration(headers:)` does, and turns them into the fields the request builder appends.
enum AdditionalHeaders {
    /// Headers only the client sets: credentials, proofs, framing and the body's type.
    static let protocolNames: Set<String> = [
        "authorization", "dpop", "content-type", "content-length", "transfer-encoding", "host", "connection",
        "cookie", "proxy-authorization", "user-agent", "accept",
    ]

    /// The longest value accepted.
    static let maximumValueLength = 4096

    /// Checks the app's headers against the protocol's and the descriptor's, and returns them sorted by name.
    /// - Parameters:
    ///   - headers: The app's headers by name.
    ///   - provider: The provider whose requests they join.
    /// - Returns: The fields to append to every request the descriptor declares.
    /// - Throws: `invalid_configuration` naming the header: a name that is not an HTTP token, one the client
    ///   itself sends (`Authorization`, `DPoP`, `Content-Type`, `Accept`, `User-Agent` (use
    ///   ``AuthClientOptions/userAgent``), …) or the descriptor's headers send (Supabase's `apikey` and
    ///   `X-Supabase-Api-Version`), in any letter case, or a value with a control character or over 4096 bytes.
    static func resolve(_ headers: [String: String], provider: ProviderSpec) throws(AuthError) -> [(String, String)] {
        guard !headers.isEmpty else { return [] }
        let descriptorNames = (provider.commonHeaders + provider.requests.values.flatMap(\.headers)).map {
            $0.name.lowercased()
        }
        let reserved = protocolNames.union(descriptorNames)
        var fields: [(String, String)] = []
        for name in headers.keys.sorted() {
            let value = headers[name] ?? ""
            guard HeaderFieldRules.isToken(name), name.utf8.count <= 128 else {
                throw AuthError(
                    .invalidConfiguration, "The additional header name '\(name.prefix(40))' is not an HTTP token.",
                    provider: provider.name)
            }
            guard !reserved.contains(name.lowercased()) else {
                throw AuthError(
                    .invalidConfiguration,
                    "The additional header '\(name)' is one the client or the descriptor sends; it cannot be replaced.",
                    provider: provider.name)
            }
            // The value is not quoted in the message: it may be a credential of the app's.
            guard value.utf8.count <= maximumValueLength,
                !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw AuthError(
                    .invalidConfiguration,
                    "The additional header '\(name)' has a control character or is over \(maximumValueLength) bytes.",
                    provider: provider.name)
            }
            fields.append((name, value))
        }
        return fields
    }
}
