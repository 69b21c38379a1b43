import Observation

/// The authentication state and actions for SwiftUI (or any Observation user), kept on the main actor.
///
/// The model follows the client's ``AuthProviderClient/stateUpdates()`` for as long as it lives. Made with a way
/// to sign in (``init(_:authenticator:scopes:prefersEphemeralSession:)`` or ``init(_:signIn:)``), it also runs
/// the sign-in and sign-out a button needs: ``signIn()`` sets ``isSigningIn`` meanwhile and ``lastError`` when
/// it fails; a cancelled sign-in (the user closed the browser, or ``cancelSignIn()``) is not an error and
/// leaves ``lastError`` empty. `SignInButton` (SwiftUI) is a thin view over it.
@MainActor
@Observable
public final class AuthModel {
    /// The current state.
    public private(set) var state: AuthState
    /// Whether a sign-in started by ``signIn()`` is running.
    public private(set) var isSigningIn = false
    /// The last failure of ``signIn()``, ``signOut()`` or ``resetTokens()``, cleared when the next one starts;
    /// never set for a cancellation.
    public private(set) var lastError: AuthError?

    /// The client the model follows.
    @ObservationIgnored @_spi(Generated) public let client: AuthClient
    @ObservationIgnored private let signInAction: (@Sendable (AuthClient) async throws(AuthError) -> Void)?
    @ObservationIgnored private var signInTask: Task<AuthError?, Never>?
    @ObservationIgnored private let subscription: Subscription

    /// Creates a model that mirrors a client's state (``signIn()`` does nothing: the model has no way to).
    /// - Parameter client: The client.
    @_spi(Generated) public init(client: AuthClient) {
        self.client = client
        self.signInAction = nil
        state = client.state
        subscription = Subscription()
        follow(client)
    }

    /// Creates a model that signs in with any flow.
    /// - Parameters:
    ///   - client: The client.
    ///   - signIn: Signs the client in, e.g. `{ try await $0.signInWithLoopback(open: SystemBrowser().opener) }`.
    @_spi(Generated) public init(
        client: AuthClient, signIn: @escaping @Sendable (AuthClient) async throws(AuthError) -> Void
    ) {
        self.client = client
        self.signInAction = signIn
        state = client.state
        subscription = Subscription()
        follow(client)
    }

    /// Creates a model that signs in through a browser (authorization code with PKCE).
    /// - Parameters:
    ///   - client: The engine.
    ///   - authenticator: Shows the authorization page (`AppleWebAuthenticator` on Apple platforms).
    ///   - scopes: The scopes (default: the provider's).
    ///   - prefersEphemeralSession: Whether the browser should not share cookies.
    @_spi(Generated) public convenience init(
        client: AuthClient, authenticator: any WebAuthenticator, scopes: [String]? = nil,
        prefersEphemeralSession: Bool = false
    ) {
        self.init(client: client) { client throws(AuthError) in
            try await client.signInWithBrowser(
                using: authenticator, scopes: scopes, prefersEphemeralSession: prefersEphemeralSession)
        }
    }

    /// The signed-in user, if any.
    public var user: User? { state.user }

    /// The signed-in principal (the name the Base IdP guide uses for ``user``), if any.
    public var principal: User? { state.user }

    /// Whether someone is signed in.
    public var isSignedIn: Bool { state.isSignedIn }

    /// Whether ``signIn()`` can start now: the model has a way to sign in and none is running.
    public var canSignIn: Bool { signInAction != nil && !isSigningIn }

    /// The provider's display name, for a button's label.
    public var providerName: String { client.provider.displayName }

    /// Signs in and returns when the sign-in ended; does nothing while one is running.
    ///
    /// Sets ``isSigningIn`` meanwhile. A failure is kept in ``lastError``; a cancellation (`login_cancelled`,
    /// or ``cancelSignIn()``) is not a failure and leaves ``lastError`` empty.
    public func signIn() async {
        guard let action = signInAction, !isSigningIn else { return }
        isSigningIn = true
        lastError = nil
        let client = self.client
        let task = Task { () async -> AuthError? in
            do throws(AuthError) {
                try await action(client)
                return nil
            } catch {
                return error
            }
        }
        signInTask = task
        // Cancelling the caller's task (a view that went away) cancels the sign-in too.
        let error = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        signInTask = nil
        isSigningIn = false
        guard let error, error.kind != .cancelled, !task.isCancelled else { return }
        lastError = error
    }

    /// Cancels a running ``signIn()``; its result is not an error.
    public func cancelSignIn() {
        signInTask?.cancel()
    }

    /// Signs out at the provider when it has a sign-out request, and always locally
    /// (``Auth/signOut(scope:)``); a failure is kept in ``lastError``.
    public func signOut() async {
        lastError = nil
        do throws(AuthError) {
            try await client.signOut()
        } catch {
            lastError = error
        }
    }

    /// Forgets the session on this device without any request (``AuthProviderClient/resetTokens()``); a failure is kept
    /// in ``lastError``.
    public func resetTokens() async {
        lastError = nil
        do throws(AuthError) {
            try await client.resetTokens()
        } catch {
            lastError = error
        }
    }

    private func follow(_ client: AuthClient) {
        let updates = client.stateUpdates()
        subscription.task = Task { @MainActor [weak self] in
            for await state in updates {
                guard let self else { return }
                self.state = state
            }
        }
    }

    /// Cancels the task that follows the stream when the model goes away.
    private final class Subscription {
        var task: Task<Void, Never>?
        deinit { task?.cancel() }
    }
}
