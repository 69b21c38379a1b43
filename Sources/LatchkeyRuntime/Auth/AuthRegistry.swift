/// Keeps one ``AuthClient`` per key, so that every part of an app shares the same session and refresh.
///
/// Clients of different configurations (providers, tenants, issuers, client ids) keep their own sessions in a
/// shared store with default options: each stores under its ``AuthClient/storeKey``, derived from its
/// ``ProviderIdentity``. Two clients of the same configuration (two accounts) need their own
/// ``AuthClientOptions/storeKey``.
public actor AuthRegistry {
    private var clients: [String: AuthClient] = [:]
    private var order: [String] = []

    /// Creates an empty registry.
    public init() {}

    /// The client registered under a key.
    /// - Parameter key: The key.
    /// - Returns: The client, or `nil`.
    public func client(forKey key: String) -> AuthClient? { clients[key] }

    /// Registers a client under a key, replacing any other.
    /// - Parameters:
    ///   - client: The client.
    ///   - key: The key.
    public func register(_ client: AuthClient, forKey key: String) {
        if clients[key] == nil { order.append(key) }
        clients[key] = client
    }

    /// The client under a key, created (once) when there is none.
    /// - Parameters:
    ///   - key: The key.
    ///   - make: Creates the client; called only when none is registered.
    /// - Returns: The registered client.
    /// - Throws: What `make` throws.
    public func client(forKey key: String, orCreate make: () throws(AuthError) -> AuthClient) throws(AuthError)
        -> AuthClient
    {
        if let existing = clients[key] { return existing }
        let created = try make()
        register(created, forKey: key)
        return created
    }

    /// Every registered client, in registration order.
    public var allClients: [AuthClient] { order.compactMap { clients[$0] } }
}
