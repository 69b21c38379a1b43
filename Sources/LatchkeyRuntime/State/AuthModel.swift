import LatchkeyTokens
import LatchkeyVocabulary

/// The authentication state and actions for SwiftUI, kept on the main actor.
///
/// One model for every supported OS: an `ObservableObject` (`@StateObject`, `@ObservedObject`) wherever Combine
/// is, and `Observable` (`@State`, `@Bindable`, plain reads in a view's body) where the OS has Observation
/// (iOS 17, macOS 14, tvOS 17, watchOS 10; Linux). `ModelChangeNotifier` does both: every change of
/// ``state``, ``isSigningIn`` or ``lastError`` is announced once, before it happens, and an assignment of the
/// current value announces nothing.
///
/// The model follows the client's ``AuthProviderClient/stateUpdates()`` for as long as it lives; ``restore()``
/// reads the stored session at launch. Made with a way to sign in
/// (``init(browserSignIn:scopes:prefersEphemeralSession:)``, ``init(_:authenticator:scopes:prefersEphemeralSession:)``
/// or ``init(_:signIn:)``), it also runs the sign-in and sign-out a button needs: ``signIn()`` sets ``isSigningIn``
/// meanwhile and ``lastError`` when it fails; a cancelled sign-in (the user closed the browser, or
/// ``cancelSignIn()``) is not an error and leaves ``lastError`` empty. `SignInButton` (SwiftUI) is a thin view over it.
@MainActor
public final class AuthModel {
    /// The current state.
    public private(set) var state: AuthState {
        get {
            observe(\.state)
            return storedState
        }
        set { change(\.state, \.storedState, to: newValue) }
    }

    /// Whether a sign-in started by ``signIn()`` is running.
    public private(set) var isSigningIn: Bool {
        get {
            observe(\.isSigningIn)
            return storedIsSigningIn
        }
        set { change(\.isSigningIn, \.storedIsSigningIn, to: newValue) }
    }

    /// The last failure of ``signIn()``, ``signOut()`` or ``resetTokens()``, cleared when the next one starts;
    /// never set for a cancellation.
    public private(set) var lastError: AuthError? {
        get {
            observe(\.lastError)
            return storedLastError
        }
        set { change(\.lastError, \.storedLastError, to: newValue) }
    }

    private var storedState: AuthState
    private var storedIsSigningIn = false
    private var storedLastError: AuthError?

    /// The client the model follows.
    @_spi(Generated) public let client: AuthClient
    /// Announces the changes (Combine and Observation).
    nonisolated let notifier: ModelChangeNotifier
    private let signInMethod: SignInMethod
    private var signInTask: Task<AuthError?, Never>?
    private let subscription = Subscription()

    /// Creates a model that follows a client and signs in with `signInMethod`.
    init(client: AuthClient, signInMethod: SignInMethod) {
        self.client = client
        self.signInMethod = signInMethod
        notifier = ModelChangeNotifier()
        storedState = client.state
        follow(client)
    }

    /// Creates a model that mirrors a client's state (``signIn()`` does nothing: the model has no way to).
    /// - Parameter client: The client.
    @_spi(Generated) public convenience init(client: AuthClient) {
        self.init(client: client, signInMethod: .none)
    }

    /// Creates a model that signs in with any flow.
    /// - Parameters:
    ///   - client: The client.
    ///   - signIn: Signs the client in, e.g. `{ try await $0.signInWithLoopback(open: SystemBrowser().opener) }`.
    @_spi(Generated) public convenience init(
        client: AuthClient, signIn: @escaping @Sendable (AuthClient) async throws(AuthError) -> Void
    ) {
        self.init(client: client, signInMethod: .flow(signIn))
    }

    /// Creates a model that signs in through a browser (authorization code with PKCE).
    /// - Parameters:
    ///   - client: The engine.
    ///   - authenticator: Shows the authorization page; `nil`: the one ``signIn(using:)`` is given (SwiftUI's
    ///     web authentication session, from `SignInButton`), else the platform's own.
    ///   - scopes: The scopes (default: the provider's).
    ///   - prefersEphemeralSession: Whether the browser should not share cookies.
    @_spi(Generated) public convenience init(
        client: AuthClient, authenticator: (any WebAuthenticator)?, scopes: [String]? = nil,
        prefersEphemeralSession: Bool = false
    ) {
        self.init(
            client: client,
            signInMethod: .browser(
                authenticator: authenticator, scopes: scopes, prefersEphemeralSession: prefersEphemeralSession))
    }

    /// The signed-in user, if any.
    public var user: User? { state.user }

    /// The signed-in principal (the name the Base IdP guide uses for ``user``), if any.
    public var principal: User? { state.user }

    /// Whether someone is signed in.
    public var isSignedIn: Bool { state.isSignedIn }

    /// Whether ``signIn()`` can start now: the model has a way to sign in and none is running.
    public var canSignIn: Bool { signInMethod.canSignIn && !isSigningIn }

    /// The provider's display name, for a button's label.
    public var providerName: String { client.provider.displayName }

    /// Reads the stored session without any network request (``AuthProviderClient/restore()``) and shows the
    /// result at once; call it at launch (`.task { await auth.restore() }`).
    /// - Returns: The state after the read.
    @discardableResult
    public func restore() async -> AuthState {
        let restored = await client.restore()
        state = client.state
        return restored
    }

    /// Signs in and returns when the sign-in ended; does nothing while one is running.
    ///
    /// Sets ``isSigningIn`` meanwhile. A failure is kept in ``lastError``; a cancellation (`login_cancelled`,
    /// or ``cancelSignIn()``) is not a failure and leaves ``lastError`` empty. A model that signs in through a
    /// browser it was not given uses the platform's own (`AppleWebAuthenticator()`, presented from the key
    /// window, or by itself on watchOS); where there is none (tvOS), the sign-in fails with `invalid_configuration`.
    public func signIn() async {
        await run(signInMethod.action(viewAuthenticator: nil))
    }

    /// Signs in like ``signIn()``, through `authenticator` when the model signs in through a browser it was
    /// not given (`SignInButton` passes SwiftUI's web authentication session).
    ///
    /// A model made with a browser of its own, or with a flow (``init(_:signIn:)``), ignores `authenticator`.
    /// - Parameter authenticator: The browser of the view that asks.
    public func signIn(using authenticator: any WebAuthenticator) async {
        await run(signInMethod.action(viewAuthenticator: authenticator))
    }

    /// Cancels a running ``signIn()``; its result is not an error.
    public func cancelSignIn() {
        signInTask?.cancel()
    }

    /// Signs out locally, then at the provider when it has a sign-out request
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

    private func run(_ action: (@Sendable (AuthClient) async throws(AuthError) -> Void)?) async {
        guard let action, !isSigningIn else { return }
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

    private func follow(_ client: AuthClient) {
        let updates = client.stateUpdates()
        subscription.task = Task { @MainActor [weak self] in
            // The client's current state, not the value the stream buffered: after ``restore()`` showed the
            // restored state, an older value still in the stream must not take it back.
            for await _ in updates {
                guard let self else { return }
                self.state = self.client.state
            }
        }
    }

    /// Cancels the task that follows the stream when the model goes away.
    private final class Subscription {
        var task: Task<Void, Never>?
        deinit { task?.cancel() }
    }
}
