import Foundation
import LatchkeyTokens

/// Sends a URL the app was opened with to the client whose pending browser sign-in it completes.
public struct CallbackRouter: Sendable {
    private let providers: @Sendable () async -> [any AuthProviderClient]
    private let onResult: (@Sendable (any AuthProviderClient, Result<Session, AuthError>) -> Void)?

    /// Creates a router over fixed clients.
    /// - Parameters:
    ///   - providers: The generated clients.
    ///   - onResult: Receives each handled callback's client and outcome.
    public init(
        providers: [any AuthProviderClient],
        onResult: (@Sendable (any AuthProviderClient, Result<Session, AuthError>) -> Void)? = nil
    ) {
        self.providers = { providers }
        self.onResult = onResult
    }

    /// Creates a router over every client of a registry.
    /// - Parameters:
    ///   - registry: The registry.
    ///   - onResult: Receives each handled callback's client and outcome.
    public init(
        registry: AuthRegistry,
        onResult: (@Sendable (any AuthProviderClient, Result<Session, AuthError>) -> Void)? = nil
    ) {
        self.providers = { await registry.allProviders }
        self.onResult = onResult
    }

    /// Creates a router over fixed engines.
    /// - Parameters:
    ///   - clients: The engines.
    ///   - onResult: Receives each handled callback's engine and outcome.
    @_spi(Generated)
    public init(
        clients: [AuthClient], onResult: (@Sendable (AuthClient, Result<Session, AuthError>) -> Void)? = nil
    ) {
        self.providers = { clients.map(EngineOnlyClient.init(client:)) }
        if let onResult {
            self.onResult = { provider, result in onResult(provider.client, result) }
        } else {
            self.onResult = nil
        }
    }

    /// Hands a URL to the first client with a matching pending sign-in.
    /// - Parameter url: The URL.
    /// - Returns: `true` when a client took it (whatever the outcome), `false` for an unrelated URL.
    @discardableResult
    public func handle(_ url: URL) async -> Bool {
        for provider in await providers() where await provider.client.canHandle(url) {
            do {
                let session = try await provider.client.handleCallback(url)
                onResult?(provider, .success(session))
            } catch {
                onResult?(provider, .failure(error))
            }
            return true
        }
        return false
    }
}
