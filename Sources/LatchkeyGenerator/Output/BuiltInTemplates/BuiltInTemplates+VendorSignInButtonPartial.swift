// swift-format-ignore-file
// Written by scripts/embed-templates.sh from Templates/. Do not edit by hand.

extension BuiltInTemplates {
    /// `Templates/_VendorSignInButton.swift.template`.
    static let partialVendorSignInButton = #"""
{{! The vendor SDK's SwiftUI sign-in button. }}
#if canImport(SwiftUI)
    /// A SwiftUI button that signs in with {{displayName | doc}} through a {{authType | doc}}: on iOS 16.4,
    /// macOS 13.3 and visionOS through the view's web authentication session (no window handed over), before
    /// through the system's browser sheet. Disabled while a sign-in runs; the outcome shows in the auth's `state`.
    @MainActor
    public struct {{signInButton | identifier}}<Label: SwiftUI.View>: SwiftUI.View {
        @SwiftUI.ObservedObject private var auth: {{authType | identifier}}
        private let label: Label

        /// Creates a button with a label of the app's own.
        /// - Parameters:
        ///   - auth: The auth object that signs in.
        ///   - label: The label.
        public init(auth: {{authType | identifier}}, @SwiftUI.ViewBuilder label: () -> Label) {
            _auth = SwiftUI.ObservedObject(wrappedValue: auth)
            self.label = label()
        }

        /// The button.
        public var body: some SwiftUI.View {
            let auth = self.auth
            LatchkeyRuntime.VendorSignInButton(isDisabled: auth.isAuthenticating, label: label) { authenticator in
                _ = try? await auth.signIn(using: authenticator)
            }
        }
    }

    extension {{signInButton | identifier}} where Label == SwiftUI.Text {
        /// Creates a button labelled "Sign in with {{displayName | doc}}".
        /// - Parameter auth: The auth object that signs in.
        public init(auth: {{authType | identifier}}) {
            self.init(auth: auth) { SwiftUI.Text({{signInLabel | string}}) }
        }
    }
#endif

"""#
}
