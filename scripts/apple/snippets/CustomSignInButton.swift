// A sign-in button of the app's own on SwiftUI's web authentication session (iOS 16.4, macOS 13.3, visionOS; not
// tvOS, where Latchkey has no browser sign-in, nor watchOS, where the model signs in through AppleWebAuthenticator), as
// SwiftUIWebAuthenticator's documentation shows it. Type-checked by scripts/apple/swiftui-snippets-check.sh.
import AuthenticationServices
import Latchkey
import SwiftUI

#if os(iOS) || os(macOS) || os(visionOS)  // no SwiftUIWebAuthenticator on tvOS and watchOS
@available(iOS 16.4, macOS 13.3, *)
struct CustomSignInButton: View {
    @ObservedObject var auth: AuthModel
    @Environment(\.webAuthenticationSession) private var webAuthenticationSession

    var body: some View {
        Button("Continue with Base IdP") {
            Task { await auth.signIn(using: SwiftUIWebAuthenticator(webAuthenticationSession)) }
        }
        .disabled(!auth.canSignIn)
    }
}
#endif
