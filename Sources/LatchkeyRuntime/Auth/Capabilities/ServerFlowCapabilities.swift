import Foundation
import LatchkeyPlatform
import LatchkeyTokens

/// A client whose provider signs in devices without a browser (RFC 8628 device authorization).
public protocol DeviceAuthorizationProviding: AuthProviderClient {}

extension DeviceAuthorizationProviding {
    /// Starts a device sign-in (RFC 8628) for a command-line tool or a device without a browser.
    ///
    /// Show the user the returned code and verification URI, then call ``completeDeviceAuthorization(_:)``.
    /// - Parameter scopes: The scopes to request (default: the descriptor's).
    /// - Returns: The user code, the verification URI and the polling interval.
    /// - Throws: Provider and discovery errors.
    public func startDeviceAuthorization(scopes: [String]? = nil) async throws(AuthError) -> DeviceAuthorization {
        try await client.startDeviceAuthorization(scopes: scopes)
    }

    /// Polls until the user approves the device sign-in, then stores the session.
    /// - Parameter authorization: What ``startDeviceAuthorization(scopes:)`` returned.
    /// - Returns: The new session.
    /// - Throws: `login_cancelled` when the user denies it, `expired_token` when the code expires.
    @discardableResult
    public func completeDeviceAuthorization(_ authorization: DeviceAuthorization) async throws(AuthError)
        -> Session
    {
        try await client.completeDeviceAuthorization(authorization)
    }
}

/// A client whose provider issues tokens to the client itself (client credentials grant), for
/// server-side tools created with a client secret.
public protocol ClientCredentialsProviding: AuthProviderClient {}

extension ClientCredentialsProviding {
    /// An access token for the client itself, for server-side tools created with a `clientSecret`.
    /// Cached until shortly before it expires; concurrent callers share one request.
    /// - Parameters:
    ///   - scopes: The scopes to request (default: the descriptor's).
    ///   - forceRefresh: Whether to request a new token even when the cached one is still fresh.
    /// - Returns: The token and its expiry; it is never stored as the session.
    /// - Throws: `invalid_configuration` without a client secret; `invalid_client` for a wrong secret.
    public func clientCredentialsToken(scopes: [String]? = nil, forceRefresh: Bool = false) async throws(AuthError)
        -> ClientCredentialsToken
    {
        try await client.clientCredentialsToken(scopes: scopes, forceRefresh: forceRefresh)
    }

    /// Forgets every cached client-credentials token, so that the next call requests a new one.
    public func discardClientCredentialsTokens() async { await client.discardClientCredentialsTokens() }
}

/// A client whose provider logs out in a browser (OpenID RP-initiated logout).
public protocol EndSessionProviding: AuthProviderClient {}

extension EndSessionProviding {
    /// Logs out at the provider in a browser (RP-initiated logout). The local session ends first, even
    /// when the browser step is cancelled.
    /// - Parameters:
    ///   - authenticator: Shows the logout page and returns the callback URL.
    ///   - postLogoutRedirectURI: Where the provider sends the browser back (default:
    ///     `redirectURIs["postLogout"]`).
    ///   - prefersEphemeralSession: Whether the browser should not share cookies (rarely wanted for a
    ///     logout, which needs the provider's cookies).
    /// - Throws: `login_cancelled` when the browser step was cancelled; `state_mismatch` when the
    ///   callback's state differs.
    public func endSession(
        using authenticator: any WebAuthenticator,
        postLogoutRedirectURI: URL? = nil,
        prefersEphemeralSession: Bool = false
    ) async throws(AuthError) {
        try await client.endSession(
            using: authenticator, postLogoutRedirectURI: postLogoutRedirectURI,
            prefersEphemeralSession: prefersEphemeralSession)
    }

    /// Logs out at the provider through the system browser and a loopback redirect on 127.0.0.1, for
    /// command-line tools and desktop apps. The local session ends first, whatever happens in the browser.
    ///
    /// The post-logout redirect URI is the configured `redirectURIs["postLogout"]` when it is a loopback
    /// `http` URI, else the loopback URI a loopback sign-in would use; the provider must know it (register it
    /// as a post-logout redirect URI). The callback must carry the state sent; the browser is then shown
    /// ``LoopbackPages/signedOut`` from ``AuthClientOptions/loopbackPages``.
    /// - Parameters:
    ///   - open: Opens the end-session URL, e.g. `SystemBrowser().opener`.
    ///   - timeout: How long to wait for the browser to come back.
    /// - Throws: `timeout` when the provider did not send the browser back in time, `login_cancelled` when
    ///   cancelled, `invalid_configuration` when the provider has no end-session endpoint.
    public func endSessionWithLoopback(
        open: @escaping @Sendable (URL) async throws(AuthError) -> Void,
        timeout: LatchkeyDuration = .seconds(300)
    ) async throws(AuthError) {
        try await client.endSessionWithLoopback(open: open, timeout: timeout)
    }

    /// Ends the local session and returns the provider's logout URL for the app to open.
    /// - Parameter postLogoutRedirectURI: Where the provider sends the browser back (default:
    ///   `redirectURIs["postLogout"]`).
    /// - Returns: The logout request; check its callback with ``completeEndSession(_:callbackURL:)``.
    /// - Throws: `invalid_configuration` when the endpoint is unknown; discovery errors.
    public func prepareEndSession(postLogoutRedirectURI: URL? = nil) async throws(AuthError) -> EndSessionRequest {
        try await client.prepareEndSession(postLogoutRedirectURI: postLogoutRedirectURI)
    }

    /// Checks the URL the provider sent the browser back to after a logout.
    /// - Parameters:
    ///   - request: What ``prepareEndSession(postLogoutRedirectURI:)`` returned.
    ///   - callbackURL: The URL the browser came back to.
    /// - Throws: `redirect_mismatch` when it is not addressed to the post-logout redirect URI;
    ///   `state_mismatch` when its `state` is missing or differs.
    public func completeEndSession(_ request: EndSessionRequest, callbackURL: URL) async throws(AuthError) {
        try await client.completeEndSession(request, callbackURL: callbackURL)
    }
}

/// A client whose provider hands a session over to a backend.
public protocol ServerHandoffProviding: AuthProviderClient {}

extension ServerHandoffProviding {
    /// The payload a backend receives to take over the session: the access and refresh tokens, the
    /// token type and lifetime, and the principal from the verified access token.
    /// - Returns: The JSON payload.
    /// - Throws: `session_missing` when signed out, `invalid_token` when the access token fails verification.
    public func serverHandoff() async throws(AuthError) -> Data { try await client.serverHandoff() }
}

/// A client whose provider answers who the signed-in user is (a user-info endpoint).
public protocol UserInfoProviding: AuthProviderClient {}

extension UserInfoProviding {
    /// Fetches the signed-in user from the provider.
    /// - Returns: The user.
    /// - Throws: `session_missing` when signed out, and provider errors.
    public func fetchUser() async throws(AuthError) -> User { try await client.fetchUser() }
}
