import LatchkeyTokens

#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS) || os(watchOS))
    import AuthenticationServices
    import Foundation

    /// A ``WebAuthenticator`` on `ASWebAuthenticationSession`; closing the sheet is `login_cancelled`.
    ///
    /// A custom-scheme redirect is matched by its scheme, an `https` redirect (a universal link of the app's
    /// associated domain) by host and path (``WebAuthenticationCallback``); an `http` redirect is refused with
    /// `invalid_configuration` before anything is shown, and so is an `https` redirect before iOS 17.4, macOS 14.4,
    /// visionOS 1.1 and watchOS 10.4 (where the sheet matches custom schemes only). Cancelling the waiting task
    /// closes the sheet.
    ///
    /// On iOS, macOS and visionOS, made with ``init()``, it presents from the app's key window, found when the
    /// sign-in starts; a SwiftUI app on iOS 16.4 or macOS 13.3 and later signs in through
    /// `SwiftUIWebAuthenticator` instead (`SignInButton` does that by itself). On watchOS the session presents
    /// itself: there is no window to give (Apple's `ASWebAuthenticationSession` has no presentation context there).
    @MainActor
    public final class AppleWebAuthenticator: NSObject, WebAuthenticator {
        /// The running sessions (a session must be kept alive while it shows), by their outcome box.
        private var sessions: [ObjectIdentifier: ASWebAuthenticationSession] = [:]

        #if os(watchOS)
            /// Creates an authenticator; the session presents itself on watchOS.
            public override init() {
                super.init()
            }
        #else
            private let anchor: @MainActor () -> ASPresentationAnchor?
            /// The window each running session presents from, by the session.
            private var anchors: [ObjectIdentifier: ASPresentationAnchor] = [:]

            /// Creates an authenticator.
            /// - Parameter anchor: The window to present from.
            public init(anchor: @escaping @MainActor () -> ASPresentationAnchor) {
                self.anchor = anchor
            }

            /// Creates an authenticator that presents from the app's key window (`web_auth_start_failed` when the
            /// app has no window).
            public override convenience init() {
                self.init(optionalAnchor: AppleWebAuthenticator.keyWindow)
            }

            private init(optionalAnchor: @escaping @MainActor () -> ASPresentationAnchor?) {
                self.anchor = optionalAnchor
            }
        #endif

        /// Shows the authorization URL in an authentication session.
        /// - Throws: `invalid_configuration` for an `http` redirect, or an `https` one before iOS 17.4, macOS 14.4,
        ///   visionOS 1.1 and watchOS 10.4; `login_cancelled` when the user closed the sheet or the task was
        ///   cancelled; `web_auth_start_failed` when the sheet could not be shown or the app has no window.
        public nonisolated func authenticate(_ request: WebAuthenticationRequest) async throws(AuthError) -> URL {
            let callback = try WebAuthenticationCallback(
                redirectURI: request.redirectURI,
                universalLinksSupported: AppleWebAuthenticator.callbackMatchingAvailable)
            let outcome = OnceResumption<Result<URL, AuthError>>()
            let result = await withTaskCancellationHandler {
                Task { @MainActor in self.start(request, callback: callback, outcome: outcome) }
                return await outcome.value()
            } onCancel: {
                outcome.resolve(WebAuthenticationOutcome.taskCancelled)
                Task { @MainActor in self.finish(outcome, cancelling: true) }
            }
            return try result.get()
        }

        private func start(
            _ request: WebAuthenticationRequest, callback: WebAuthenticationCallback,
            outcome: OnceResumption<Result<URL, AuthError>>
        ) {
            // Cancelled before the main actor got here: show nothing.
            guard !outcome.isResolved else { return }
            #if !os(watchOS)
                guard let window = anchor() else {
                    outcome.resolve(WebAuthenticationOutcome.noWindow)
                    return
                }
            #endif
            let handler = AppleWebAuthenticator.completionHandler(resolving: outcome) {
                Task { @MainActor in self.finish(outcome, cancelling: false) }
            }
            let session: ASWebAuthenticationSession
            if #available(iOS 17.4, macOS 14.4, visionOS 1.1, watchOS 10.4, *) {
                session = ASWebAuthenticationSession(
                    url: request.url, callback: callback.sessionCallback, completionHandler: handler)
            } else if case .customScheme(let scheme) = callback {
                session = ASWebAuthenticationSession(
                    url: request.url, callbackURLScheme: scheme, completionHandler: handler)
            } else {
                // authenticate(_:) refused the https redirect already on this system.
                outcome.resolve(.failure(WebAuthenticationCallback.universalLinksUnavailable))
                return
            }
            #if !os(watchOS)
                session.presentationContextProvider = self
                anchors[ObjectIdentifier(session)] = window
            #endif
            session.prefersEphemeralWebBrowserSession = request.prefersEphemeralSession
            sessions[ObjectIdentifier(outcome)] = session
            if !session.start() {
                // The handler may still be called after this: the box keeps only the first result.
                outcome.resolve(WebAuthenticationOutcome.notStarted)
                finish(outcome, cancelling: false)
            }
        }

        /// Whether a sheet can match a redirect by ``WebAuthenticationCallback`` (`ASWebAuthenticationSession.Callback`,
        /// iOS 17.4, macOS 14.4, visionOS 1.1, watchOS 10.4); before that it matches a custom scheme only.
        nonisolated static var callbackMatchingAvailable: Bool {
            if #available(iOS 17.4, macOS 14.4, visionOS 1.1, watchOS 10.4, *) { return true }
            return false
        }

        private func finish(_ outcome: OnceResumption<Result<URL, AuthError>>, cancelling: Bool) {
            let session = sessions.removeValue(forKey: ObjectIdentifier(outcome))
            #if !os(watchOS)
                if let session { anchors[ObjectIdentifier(session)] = nil }
            #endif
            if cancelling { session?.cancel() }
        }

        /// The session's completion handler, made in a nonisolated context and `@Sendable`: AuthenticationServices
        /// calls it on a background queue (always on macOS, sometimes on iOS), where a closure inferred to be
        /// main-actor isolated would stop the app with a queue assertion.
        private nonisolated static func completionHandler(
            resolving outcome: OnceResumption<Result<URL, AuthError>>, then finish: @escaping @Sendable () -> Void
        ) -> @Sendable (URL?, (any Error)?) -> Void {
            { @Sendable url, error in
                let cancelled = (error as? ASWebAuthenticationSessionError)?.code == .canceledLogin
                outcome.resolve(WebAuthenticationOutcome.result(callbackURL: url, error: error, cancelled: cancelled))
                finish()
            }
        }
    }

    #if !os(watchOS)
        extension AppleWebAuthenticator: ASWebAuthenticationPresentationContextProviding {
            /// The window the session is presented from.
            public nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
            {
                MainActor.assumeIsolated {
                    // The window found when the session started (`start` records it before the session can ask).
                    anchors[ObjectIdentifier(session)] ?? anchor() ?? ASPresentationAnchor()
                }
            }
        }
    #endif

    extension WebAuthenticationCallback {
        /// The sheet's callback for this redirect.
        @available(iOS 17.4, macOS 14.4, visionOS 1.1, watchOS 10.4, *)
        var sessionCallback: ASWebAuthenticationSession.Callback {
            switch self {
            case .customScheme(let scheme): .customScheme(scheme)
            case .https(let host, let path): .https(host: host, path: path)
            }
        }
    }
#endif
