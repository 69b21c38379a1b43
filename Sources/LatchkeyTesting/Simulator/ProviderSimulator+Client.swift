@_spi(Generated) import LatchkeyRuntime

extension ProviderSimulator {
    /// Starts a simulator of a generated client's provider.
    /// - Parameters:
    ///   - client: The generated client's type, e.g. `SupabaseClient.self`.
    ///   - users: The accounts (default: ``SimulatedUser/demo``); the first signs in through the browser.
    ///   - inputs: Input values that replace the suggested ones (``configurationValues``), e.g. a custom
    ///     domain; an empty value leaves the input out. The simulator's issuer and paths follow them.
    /// - Throws: ``TestServerError`` or ``TestSignerError`` when the server or the signing key cannot be made.
    public convenience init(
        simulating client: (some AuthProviderClient).Type, users: [SimulatedUser] = [.demo],
        inputs: [String: String] = [:]
    ) throws {
        try self.init(provider: client.provider, users: users, inputs: inputs)
    }
}
