#if canImport(SwiftUI)
    import SwiftUI
    #if canImport(AuthenticationServices)
        import AuthenticationServices
    #endif

    /// A SwiftUI button that signs in through an ``AuthModel``: it starts the model's sign-in and is disabled
    /// while a sign-in runs or when the model cannot sign in.
    ///
    /// All of its logic lives in the model; show ``AuthModel/lastError`` and ``AuthModel/state`` beside it as the
    /// app likes. Generated clients that sign in with a browser name it after their provider
    /// (`SignInWithBaseIdPButton`; `AppleSignInButton` for Apple, as AuthenticationServices declares
    /// `SignInWithAppleButton`).
    ///
    /// The button hands the model the view's browser sheet: on iOS 16.4, macOS 13.3 and visionOS it signs in with
    /// ``AuthModel/signIn(using:)`` and a `SwiftUIWebAuthenticator` on `@Environment(\.webAuthenticationSession)`,
    /// so a model made with ``AuthModel/init(browserSignIn:scopes:prefersEphemeralSession:)`` needs no window.
    /// Before, it calls ``AuthModel/signIn()``, which presents `AppleWebAuthenticator` from the key window.
    ///
    /// ```swift
    /// @StateObject private var auth = AuthModel(browserSignIn: baseIdP)
    /// ...
    /// SignInWithBaseIdPButton(auth: auth)
    /// ```
    @MainActor
    public struct SignInButton<Label: View>: View {
        @ObservedObject private var auth: AuthModel
        private let label: Label

        /// Creates a button with a label of the app's own.
        /// - Parameters:
        ///   - auth: The model that signs in.
        ///   - label: The button's label.
        public init(auth: AuthModel, @ViewBuilder label: () -> Label) {
            _auth = ObservedObject(wrappedValue: auth)
            self.label = label()
        }

        /// The button.
        public var body: some View {
            #if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
                if #available(iOS 16.4, macOS 13.3, *) {
                    SessionSignInButton(auth: auth, label: label)
                } else {
                    ModelSignInButton(auth: auth, signIn: { await auth.signIn() }, label: label)
                }
            #else
                ModelSignInButton(auth: auth, signIn: { await auth.signIn() }, label: label)
            #endif
        }
    }

    extension SignInButton where Label == Text {
        /// Creates a button labelled "Sign in with" and the provider's display name.
        /// - Parameter auth: The model that signs in.
        public init(auth: AuthModel) {
            self.init(auth: auth) { Text("Sign in with \(auth.providerName)") }
        }
    }

    /// The button itself, with the sign-in it starts.
    @MainActor
    private struct ModelSignInButton<Label: View>: View {
        @ObservedObject var auth: AuthModel
        let signIn: @MainActor () async -> Void
        let label: Label

        var body: some View {
            Button {
                Task { await signIn() }
            } label: {
                label
            }
            .disabled(!auth.canSignIn)
        }
    }

    #if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
        /// The button on the view's web authentication session.
        @available(iOS 16.4, macOS 13.3, *)
        @MainActor
        private struct SessionSignInButton<Label: View>: View {
            @ObservedObject var auth: AuthModel
            let label: Label
            @Environment(\.webAuthenticationSession) private var webAuthenticationSession

            var body: some View {
                ModelSignInButton(
                    auth: auth,
                    signIn: { await auth.signIn(using: SwiftUIWebAuthenticator(webAuthenticationSession)) },
                    label: label)
            }
        }
    #endif
#endif
