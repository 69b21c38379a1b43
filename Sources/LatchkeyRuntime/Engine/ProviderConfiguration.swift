import Foundation

/// What the app supplies for a provider: input values, redirect URIs and, for server tools only, a
/// client secret.
@_spi(Generated) public struct ProviderConfiguration: Sendable, Equatable, CustomStringConvertible {
    /// Input values by input name (`projectURL`, `clientID`, ...).
    public var values: [String: String]
    /// The redirect URI of browser sign-ins.
    public var redirectURI: URL?
    /// More redirect URIs by purpose (e.g. `recovery` for password-reset links).
    public var redirectURIs: [String: URL]
    /// A client secret, supplied at run time by server-side tools; never ship one in an app.
    public var clientSecret: String?

    /// Creates a configuration.
    /// - Parameters:
    ///   - values: Input values by name.
    ///   - redirectURI: The redirect URI of browser sign-ins.
    ///   - redirectURIs: More redirect URIs by purpose.
    ///   - clientSecret: A client secret (server tools only).
    public init(
        values: [String: String] = [:], redirectURI: URL? = nil, redirectURIs: [String: URL] = [:],
        clientSecret: String? = nil
    ) {
        self.values = values
        self.redirectURI = redirectURI
        self.redirectURIs = redirectURIs
        self.clientSecret = clientSecret
    }

    /// The input names and redirect URIs; values and the secret are left out.
    public var description: String {
        "ProviderConfiguration(inputs: \(values.keys.sorted()), redirectURI: \(redirectURI?.absoluteString ?? "none")"
            + (clientSecret == nil ? ")" : ", clientSecret: <redacted>)")
    }
}
