#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
    import AuthenticationServices
    import Foundation

    /// A ``WebAuthenticator`` on `ASWebAuthenticationSession`; closing the sheet is `login_cancelled`.
    @MainActor
    public final class AppleWebAuthenticator: NSObject, WebAuthenticator,
        ASWebAuthenticationPresentationContextProviding
    {
        private let anchor: @MainActor () -> ASPresentationAnchor
        private var current: ASWebAuthenticationSession?

        /// Creates an authenticator.
        /// - Parameter anchor: The window to present from.
        public init(anchor: @escaping @MainActor () -> ASPresentationAnchor) {
            self.anchor = anchor
        }

        /// Shows the authorization URL in an authentication session.
        public nonisolated func authenticate(_ request: WebAuthenticationRequest) async throws(AuthError) -> URL {
            let result: Result<URL, AuthError> = await withCheckedContinuation { continuation in
                Task { @MainActor in self.start(request) { continuation.resume(returning: $0) } }
            }
            return try result.get()
        }

        /// The window the session is presented from.
        public nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            MainActor.assumeIsolated { anchor() }
        }

        private func start(
            _ request: WebAuthenticationRequest, completion: @escaping @Sendable (Result<URL, AuthError>) -> Void
        ) {
            let session = ASWebAuthenticationSession(url: request.url, callbackURLScheme: request.callbackScheme) {
                url, error in
                Task { @MainActor in self.current = nil }
                if let url {
                    completion(.success(url))
                } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                    completion(.failure(AuthError(.loginCancelled, "The user closed the browser.")))
                } else {
                    completion(.failure(AuthError(.webAuthStartFailed, error?.localizedDescription ?? "No callback.")))
                }
            }
            session.presentationContextProvider = self
            session.prefersEphemeralWebBrowserSession = request.prefersEphemeralSession
            current = session
            if !session.start() {
                current = nil
                completion(.failure(AuthError(.webAuthStartFailed, "The authentication session did not start.")))
            }
        }
    }
#endif
