import LatchkeyTokens

#if canImport(SwiftUI) && canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
    import AuthenticationServices
    import Foundation
    import SwiftUI

    /// A ``WebAuthenticator`` on SwiftUI's web authentication session (`@Environment(\.webAuthenticationSession)`):
    /// the sheet presents from the view's own window, so the app hands over none.
    ///
    /// `SignInButton` makes one by itself. A view of the app's own makes one from its environment:
    ///
    /// ```swift
    /// @Environment(\.webAuthenticationSession) private var webAuthenticationSession
    /// ...
    /// Button("Sign in") {
    ///     Task { await auth.signIn(using: SwiftUIWebAuthenticator(webAuthenticationSession)) }
    /// }
    /// ```
    ///
    /// The redirect is matched like ``AppleWebAuthenticator`` matches it (``WebAuthenticationCallback``): a custom
    /// scheme by its scheme, an `https` universal link by host and path (iOS 17.4, macOS 14.4 and visionOS 1.1;
    /// before, `invalid_configuration`); an `http` redirect is refused before anything is shown. Closing the
    /// sheet is `login_cancelled`. Cancelling the waiting task ends the wait at once with `login_cancelled`.
    @available(iOS 16.4, macOS 13.3, *)
    @MainActor
    public final class SwiftUIWebAuthenticator: WebAuthenticator {
        private let session: WebAuthenticationSession

        /// Creates an authenticator.
        /// - Parameter session: The view's `webAuthenticationSession` environment value.
        public init(_ session: WebAuthenticationSession) {
            self.session = session
        }

        /// Shows the authorization URL in the view's web authentication session.
        /// - Throws: `invalid_configuration` for an `http` redirect (or an `https` one before iOS 17.4, macOS
        ///   14.4 and visionOS 1.1); `login_cancelled` when the user closed the sheet or the task was cancelled;
        ///   `web_auth_start_failed` when the sheet failed.
        public nonisolated func authenticate(_ request: WebAuthenticationRequest) async throws(AuthError) -> URL {
            let callback = try WebAuthenticationCallback(
                redirectURI: request.redirectURI,
                universalLinksSupported: AppleWebAuthenticator.callbackMatchingAvailable)
            let outcome = OnceResumption<Result<URL, AuthError>>()
            let sheet = Task { @MainActor in outcome.resolve(await self.show(request, callback: callback)) }
            let result = await withTaskCancellationHandler {
                await outcome.value()
            } onCancel: {
                outcome.resolve(WebAuthenticationOutcome.taskCancelled)
                sheet.cancel()
            }
            return try result.get()
        }

        private func show(
            _ request: WebAuthenticationRequest, callback: WebAuthenticationCallback
        ) async -> Result<URL, AuthError> {
            let browserSession: WebAuthenticationSession.BrowserSession? =
                request.prefersEphemeralSession ? .ephemeral : nil
            do {
                if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) {
                    return .success(
                        try await session.authenticate(
                            using: request.url, callback: callback.sessionCallback,
                            preferredBrowserSession: browserSession, additionalHeaderFields: [:]))
                }
                guard case .customScheme(let scheme) = callback else {
                    // authenticate(_:) refused the https redirect already on this system.
                    return .failure(WebAuthenticationCallback.universalLinksUnavailable)
                }
                return .success(
                    try await session.authenticate(
                        using: request.url, callbackURLScheme: scheme, preferredBrowserSession: browserSession))
            } catch {
                let cancelled = (error as? ASWebAuthenticationSessionError)?.code == .canceledLogin
                return WebAuthenticationOutcome.result(thrown: error, cancelled: cancelled)
            }
        }
    }
#endif
