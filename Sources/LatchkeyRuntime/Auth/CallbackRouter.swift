import Foundation

/// Sends a URL the app was opened with to the client whose pending browser sign-in it completes.
public struct CallbackRouter: Sendable {
    private let clients: @Sendable () async -> [AuthClient]
    private let onResult: (@Sendable (AuthClient, Result<Session, AuthError>) -> Void)?

    /// Creates a router over fixed clients.
    /// - Parameters:
    ///   - clients: The clients.
    ///   - onResult: Receives each handled callback's outcome.
    public init(
        clients: [AuthClient], onResult: (@Sendable (AuthClient, Result<Session, AuthError>) -> Void)? = nil
    ) {
        self.clients = { clients }
        self.onResult = onResult
    }

    /// Creates a router over every client of a registry.
    /// - Parameters:
    ///   - registry: The registry.
    ///   - onResult: Receives each handled callback's outcome.
    public init(
        registry: AuthRegistry, onResult: (@Sendable (AuthClient, Result<Session, AuthError>) -> Void)? = nil
    ) {
        self.clients = { await registry.allClients }
        self.onResult = onResult
    }

    /// Hands a URL to the first client with a matching pending sign-in.
    /// - Parameter url: The URL.
    /// - Returns: `true` when a client took it (whatever the outcome), `false` for an unrelated URL.
    @discardableResult
    public func handle(_ url: URL) async -> Bool {
        for client in await clients() where await client.canHandle(url) {
            do {
                let session = try await client.handleCallback(url)
                onResult?(client, .success(session))
            } catch {
                onResult?(client, .failure(error))
            }
            return true
        }
        return false
    }
}
