/// A descriptor's `clientSecret` with `"required": true`: the client cannot work without a secret supplied at
/// run time, so creating one without it fails at once, before any request or browser.
@_spi(Generated) public struct ClientSecretRequirement: Sendable {
    /// Why, in the provider's terms (`Strava's token endpoint has no public clients.`); empty for none.
    public var reason: String

    /// Creates a requirement.
    /// - Parameter reason: Why the provider needs the secret.
    public init(reason: String = "") {
        self.reason = reason
    }
}
