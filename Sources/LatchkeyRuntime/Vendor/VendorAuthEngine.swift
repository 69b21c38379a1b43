import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// The engine behind a vendor-SDK surface that a descriptor declares (its `vendorSDK` section, such as the
/// `BaseIdP` module's `BaseIdPAuth`): one object that restores the stored session on its own, signs in through a
/// browser, signs out without waiting, and shows a failed sign-in in its state.
///
/// The generated surface is thin: it maps ``state`` to its own state cases and ``AuthError`` to its own error type.
/// Every rule lives here, tested on Linux:
/// - Creation never throws: a configuration the client refuses becomes ``state`` `failed(error)`, and every
///   call throws that error.
/// - The stored session is read as soon as the engine exists (no network request); ``restore()`` waits for it.
/// - ``state`` follows the client (a refresh that ends the session shows `signedOut`), except that a failed
///   sign-in shows `failed(error)` until the client's state changes again. A cancelled sign-in is not a failure:
///   the state goes back to what it was.
/// - ``signOut()`` returns at once: the state is `signedOut` before it returns; the stored session is removed
///   (and the provider told, when it has a sign-out request) in order, before any later call of the engine runs.
@_spi(Generated) @MainActor
public final class VendorAuthEngine {
    /// The runtime client, or `nil` when its configuration was refused.
    public let client: AuthClient?
    /// Why the client could not be created, if it could not.
    public let configurationError: AuthError?
    /// The state the surface shows.
    public private(set) var state: AuthState
    /// Called after every change of ``state``.
    public var onStateChange: (@MainActor (AuthState) -> Void)?

    private let authenticator: (any WebAuthenticator)?
    private let prefersEphemeralSession: Bool
    /// The client's state as last shown: a client update equal to it changes nothing (so a failure stays shown).
    private var lastClientState: AuthState
    /// The work later calls wait for: the restore at creation, then each sign-out.
    private var pending: Task<Void, Never>?
    private let subscription = Subscription()

    /// Creates an engine and starts reading the stored session.
    /// - Parameters:
    ///   - makeClient: Creates the runtime client (the generated surface's provider spec and configuration).
    ///   - authenticator: The browser to sign in with; `nil`: the view's (``signIn(using:)``), else the platform's
    ///     own (`AppleWebAuthenticator` on iOS, macOS, visionOS and watchOS).
    ///   - prefersEphemeralSession: Whether the browser should not share cookies.
    public init(
        makeClient: () throws(AuthError) -> AuthClient, authenticator: (any WebAuthenticator)?,
        prefersEphemeralSession: Bool
    ) {
        self.authenticator = authenticator
        self.prefersEphemeralSession = prefersEphemeralSession
        do throws(AuthError) {
            let client = try makeClient()
            self.client = client
            configurationError = nil
            state = client.state
            lastClientState = client.state
            follow(client)
            pending = Task { await client.restore() }
        } catch {
            client = nil
            configurationError = error
            state = .failed(error)
            lastClientState = .failed(error)
        }
    }

    /// Waits until the stored session was read (and any sign-out started before has finished).
    /// - Returns: The state then.
    @discardableResult
    public func restore() async -> AuthState {
        await settle()
        return state
    }

    /// Signs in through a browser: `authenticator` when the engine was given none (a SwiftUI view's web
    /// authentication session), else the engine's, else the platform's own.
    /// - Parameter viewAuthenticator: The browser of the view that asks, if any.
    /// - Returns: The new session and, for a provider with PASETO access tokens, its server handoff.
    /// - Throws: The client's errors; `invalid_configuration` where the platform has no browser sheet.
    public func signIn(
        using viewAuthenticator: (any WebAuthenticator)? = nil
    ) async throws(AuthError) -> (session: Session, handoff: ServerHandoff?) {
        let client = try requireClient()
        await settle()
        guard let browser = authenticator ?? viewAuthenticator ?? AuthModel.platformAuthenticator() else {
            let error = AuthError(
                .invalidConfiguration,
                "This platform has no browser sheet: create the auth object with an authenticator.")
            show(.failed(error))
            throw error
        }
        show(.authenticating)
        do throws(AuthError) {
            let session = try await client.signInWithBrowser(
                using: browser, prefersEphemeralSession: prefersEphemeralSession)
            let handoff: ServerHandoff? =
                client.provider.tokens.accessTokenFormat.behaviour.offersServerHandoff
                ? try await client.serverHandoffPayload() : nil
            followClient()
            return (session, handoff)
        } catch {
            lastClientState = client.state
            show(error.code == .loginCancelled ? client.state : .failed(error))
            throw error
        }
    }

    /// Signs out without waiting: ``state`` is `signedOut` when this returns; the stored session is removed (and
    /// the provider told, when the descriptor has a sign-out request) before any later call runs.
    public func signOut() {
        guard let client else { return }
        lastClientState = .signedOut
        show(.signedOut)
        let previous = pending
        pending = Task {
            await previous?.value
            try? await client.signOut()
        }
    }

    /// A valid access token, refreshed first when it expires within the refresh leeway.
    /// - Returns: The access token.
    /// - Throws: `session_missing` when signed out; the refresh's errors.
    public func validAccessToken() async throws(AuthError) -> String {
        let client = try requireClient()
        await settle()
        return try await client.validAccessToken()
    }

    /// The current session (refreshed first when it expires within the leeway) and its server handoff.
    /// - Returns: The session and, for a provider with PASETO access tokens, its server handoff.
    /// - Throws: `session_missing` when signed out; the refresh's errors.
    public func currentSession() async throws(AuthError) -> (session: Session, handoff: ServerHandoff?) {
        let client = try requireClient()
        await settle()
        let session = try await client.currentSession()
        let handoff: ServerHandoff? =
            client.provider.tokens.accessTokenFormat.behaviour.offersServerHandoff
            ? try await client.serverHandoffPayload() : nil
        return (session, handoff)
    }

    /// The clock the client reads (the options' `now`), for values computed later (a handoff's `expires_in`).
    public nonisolated var now: @Sendable () -> Date {
        if let client { return client.options.now }
        return { Date() }
    }

    private func requireClient() throws(AuthError) -> AuthClient {
        guard let client else {
            throw configurationError ?? AuthError(.invalidConfiguration, "The client could not be created.")
        }
        return client
    }

    private func settle() async {
        while let task = pending {
            await task.value
            if pending == task { pending = nil }
        }
        followClient()
    }

    /// Shows the client's state when it changed since last shown.
    private func followClient() {
        guard let client else { return }
        let current = client.state
        guard current != lastClientState else { return }
        lastClientState = current
        show(current)
    }

    private func show(_ newState: AuthState) {
        guard newState != state else { return }
        state = newState
        onStateChange?(newState)
    }

    private func follow(_ client: AuthClient) {
        let updates = client.stateUpdates()
        subscription.task = Task { @MainActor [weak self] in
            for await _ in updates {
                guard let self else { return }
                self.followClient()
            }
        }
    }

    /// Cancels the task that follows the client when the engine goes away.
    private final class Subscription {
        var task: Task<Void, Never>?
        deinit { task?.cancel() }
    }
}

extension ServerHandoff {
    /// The handoff as a JSON object (`[String: Any]`, `NSNull` for a missing value), for an app that posts it
    /// with `JSONSerialization`; `expires_in` counts from `now`.
    /// - Parameters:
    ///   - expiresAt: When the access token expires, if known.
    ///   - now: The current time.
    /// - Returns: The object.
    @_spi(Generated) public func jsonObject(expiresAt: Date?, now: Date) -> [String: Any] {
        var copy = self
        if let expiresAt {
            let remaining = expiresAt.timeIntervalSince(now).rounded(.down)
            copy.expiresIn = remaining > 0 ? Int(min(remaining, Double(Int32.max))) : 0
        }
        return ((try? JSONSerialization.jsonObject(with: copy.jsonData)) as? [String: Any]) ?? [:]
    }
}
