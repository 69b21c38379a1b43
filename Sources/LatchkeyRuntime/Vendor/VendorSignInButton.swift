#if canImport(SwiftUI)
    import SwiftUI
    #if canImport(AuthenticationServices)
        import AuthenticationServices
    #endif

    /// The view behind a vendor-SDK surface's sign-in button (`SignInWithBaseIdPButton` in the `BaseIdP` module):
    /// a button that starts `signIn` with the view's browser sheet, disabled while `isDisabled`.
    ///
    /// On iOS 16.4, macOS 13.3 and visionOS it passes a `SwiftUIWebAuthenticator` on
    /// `@Environment(\.webAuthenticationSession)`, so no window is handed over; before, and elsewhere, it passes
    /// `nil` and the surface uses the platform's own browser sheet (as ``SignInButton`` does).
    @_spi(Generated) @MainActor
    public struct VendorSignInButton<Label: View>: View {
        private let isDisabled: Bool
        private let signIn: @MainActor ((any WebAuthenticator)?) async -> Void
        private let label: Label

        /// Creates the button.
        /// - Parameters:
        ///   - isDisabled: Whether the button is disabled (a sign-in runs).
        ///   - label: The label.
        ///   - signIn: Signs in through the given browser, or the surface's own when `nil`.
        public init(
            isDisabled: Bool, label: Label, signIn: @escaping @MainActor ((any WebAuthenticator)?) async -> Void
        ) {
            self.isDisabled = isDisabled
            self.label = label
            self.signIn = signIn
        }

        /// The button.
        public var body: some View {
            #if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
                if #available(iOS 16.4, macOS 13.3, *) {
                    VendorSessionSignInButton(isDisabled: isDisabled, signIn: signIn, label: label)
                } else {
                    plainButton(authenticator: nil)
                }
            #else
                plainButton(authenticator: nil)
            #endif
        }

        private func plainButton(authenticator: (any WebAuthenticator)?) -> some View {
            let signIn = self.signIn
            return Button {
                Task { await signIn(authenticator) }
            } label: {
                label
            }
            .disabled(isDisabled)
        }
    }

    #if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
        /// The button on the view's web authentication session.
        @available(iOS 16.4, macOS 13.3, *)
        @MainActor
        private struct VendorSessionSignInButton<Label: View>: View {
            let isDisabled: Bool
            let signIn: @MainActor ((any WebAuthenticator)?) async -> Void
            let label: Label
            @Environment(\.webAuthenticationSession) private var webAuthenticationSession

            var body: some View {
                let signIn = self.signIn
                let session = webAuthenticationSession
                Button {
                    Task { await signIn(SwiftUIWebAuthenticator(session)) }
                } label: {
                    label
                }
                .disabled(isDisabled)
            }
        }
    #endif
#endif
