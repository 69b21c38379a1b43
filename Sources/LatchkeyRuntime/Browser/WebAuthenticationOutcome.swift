import Foundation
import LatchkeyTokens

/// Turns what an authentication sheet's completion handler received into the sign-in's result: the
/// platform-neutral part of ``AppleWebAuthenticator``'s handler.
enum WebAuthenticationOutcome {
    /// The result of a completion handler call.
    ///
    /// The message names the error's domain and code only: a platform error's text could quote the URL.
    /// - Parameters:
    ///   - callbackURL: The URL the sheet returned, if any.
    ///   - error: The error the sheet returned, if any.
    ///   - cancelled: Whether `error` is the sheet's "user cancelled" error.
    /// - Returns: The callback URL, `login_cancelled`, or `web_auth_start_failed`.
    static func result(callbackURL: URL?, error: (any Error)?, cancelled: Bool) -> Result<URL, AuthError> {
        if cancelled { return .failure(AuthError(.loginCancelled, "The user closed the browser.")) }
        if let callbackURL, error == nil { return .success(callbackURL) }
        guard let error else {
            return .failure(AuthError(.webAuthStartFailed, "The authentication session ended without a callback."))
        }
        let described = error as NSError
        return .failure(
            AuthError(
                .webAuthStartFailed,
                "The authentication session failed (\(described.domain) error \(described.code))."))
    }

    /// The result of a sheet's `async throws` call that threw (SwiftUI's `WebAuthenticationSession`).
    ///
    /// A task cancellation (`CancellationError`) is a cancelled sign-in, like the sheet's own "user cancelled".
    /// - Parameters:
    ///   - error: What the call threw.
    ///   - cancelled: Whether `error` is the sheet's "user cancelled" error.
    /// - Returns: `login_cancelled` or `web_auth_start_failed`.
    static func result(thrown error: any Error, cancelled: Bool) -> Result<URL, AuthError> {
        if error is CancellationError { return taskCancelled }
        return result(callbackURL: nil, error: error, cancelled: cancelled)
    }

    /// The result when no window could be found to present the sheet from.
    static let noWindow = Result<URL, AuthError>.failure(
        AuthError(.webAuthStartFailed, "There is no window to present the authentication session from."))

    /// The result when the sheet could not be started (`start()` returned `false`).
    static let notStarted = Result<URL, AuthError>.failure(
        AuthError(.webAuthStartFailed, "The authentication session did not start."))

    /// The result when the waiting task was cancelled.
    static let taskCancelled = Result<URL, AuthError>.failure(
        AuthError(.loginCancelled, "The sign-in was cancelled."))
}
