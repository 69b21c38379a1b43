import Foundation

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
