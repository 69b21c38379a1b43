import LatchkeyTokens

/// Keeps one client per key, so that every part of an app shares the same session and refresh.
///
/// Clients of different configurations (providers, tenants, issuers, client ids) keep their own sessions in a
/// shared store with default options: each stores under a key derived from its provider, issuer and client
/// id. Two clients of the same configuration (two accounts) need their own ``AuthClientOptions/storeKey``.
public actor AuthRegistry {
    private var providers: [String: any AuthProviderClient] = [:]
    private var order: [String] = []

    /// Creates an empty registry.
    public init() {}

    /// The client registered under a key.
    /// - Parameters:
    ///   - key: The key.
    ///   - type: The generated client's type.
    /// - Returns: The client, or `nil` when none of that type is registered under the key.
    public func provider<Provider: AuthProviderClient>(forKey key: String, as type: Provider.Type = Provider.self)
        -> Provider?
    {
        providers[key] as? Provider
    }

    /// Registers a client under a key, replacing any other.
    /// - Parameters:
    ///   - provider: The generated client.
    ///   - key: The key.
    public func register(_ provider: some AuthProviderClient, forKey key: String) {
        if providers[key] == nil { order.append(key) }
        providers[key] = provider
    }

    /// The client under a key, created (once) when there is none of its type.
    /// - Parameters:
    ///   - key: The key.
    ///   - make: Creates the client; called only when none of its type is registered under the key (a client
    ///     of another type is replaced).
    /// - Returns: The registered client.
    /// - Throws: What `make` throws.
    public func provider<Provider: AuthProviderClient>(
        forKey key: String, orCreate make: () throws(AuthError) -> Provider
    ) throws(AuthError) -> Provider {
        if let existing = providers[key] as? Provider { return existing }
        let created = try make()
        register(created, forKey: key)
        return created
    }

    /// Every registered client, in registration order.
    public var allProviders: [any AuthProviderClient] { order.compactMap { providers[$0] } }
}

@_spi(Generated)
extension AuthRegistry {
    /// The engine registered under a key.
    /// - Parameter key: The key.
    /// - Returns: The engine, or `nil`.
    public func client(forKey key: String) -> AuthClient? { providers[key]?.client }

    /// Registers an engine under a key, replacing any other.
    /// - Parameters:
    ///   - client: The engine.
    ///   - key: The key.
    public func register(_ client: AuthClient, forKey key: String) {
        register(EngineOnlyClient(client: client), forKey: key)
    }

    /// The engine under a key, created (once) when there is none.
    /// - Parameters:
    ///   - key: The key.
    ///   - make: Creates the engine; called only when none is registered.
    /// - Returns: The registered engine.
    /// - Throws: What `make` throws.
    public func client(forKey key: String, orCreate make: () throws(AuthError) -> AuthClient) throws(AuthError)
        -> AuthClient
    {
        if let existing = providers[key] { return existing.client }
        let created = try make()
        register(created, forKey: key)
        return created
    }
}

/// An engine registered without its generated client.
struct EngineOnlyClient: AuthProviderClient {
    let client: AuthClient
}
