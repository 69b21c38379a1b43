#if canImport(SwiftUI)
    import SwiftUI

    /// A SwiftUI button that signs in through an ``AuthModel``: it starts ``AuthModel/signIn()`` and is
    /// disabled while a sign-in runs or when the model cannot sign in.
    ///
    /// All of its logic lives in the model; show ``AuthModel/lastError`` and ``AuthModel/state`` beside it as the
    /// app likes. Generated clients that sign in with a browser name it after their provider
    /// (`SignInWithBaseIdPButton`; `AppleSignInButton` for Apple, as AuthenticationServices declares
    /// `SignInWithAppleButton`).
    ///
    /// ```swift
    /// let model = AuthModel(baseIdP, authenticator: AppleWebAuthenticator { window })
    /// SignInWithBaseIdPButton(auth: model)
    /// ```
    @MainActor
    public struct SignInButton<Label: View>: View {
        private let auth: AuthModel
        private let label: Label

        /// Creates a button with a label of the app's own.
        /// - Parameters:
        ///   - auth: The model that signs in.
        ///   - label: The button's label.
        public init(auth: AuthModel, @ViewBuilder label: () -> Label) {
            self.auth = auth
            self.label = label()
        }

        /// The button.
        public var body: some View {
            Button {
                Task { await auth.signIn() }
            } label: {
                label
            }
            .disabled(!auth.canSignIn)
        }
    }

    extension SignInButton where Label == Text {
        /// Creates a button labelled "Sign in with" and the provider's display name.
        /// - Parameter auth: The model that signs in.
        public init(auth: AuthModel) {
            self.init(auth: auth) { Text("Sign in with \(auth.providerName)") }
        }
    }
#endif
