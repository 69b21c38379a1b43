// Browser sign-in in a watch app (SignInAndSignOut.md): the model's button and a direct call both go through
// AppleWebAuthenticator(), whose ASWebAuthenticationSession presents itself on watchOS (no window to give).
// Type-checked by scripts/apple/swiftui-snippets-check.sh (watchos).
import Latchkey
import SwiftUI

#if os(watchOS)
struct WatchSignInView: View {
    @ObservedObject var auth: AuthModel
    let client: BaseIdPClient
    @State private var failure: AuthError?

    var body: some View {
        VStack {
            SignInButton(auth: auth)  // the model signs in through AppleWebAuthenticator() by itself
            Button("Sign in without the model") {
                Task {
                    do {
                        _ = try await client.signInWithBrowser(using: AppleWebAuthenticator())
                    } catch {
                        failure = error as? AuthError
                    }
                }
            }
        }
    }
}
#endif
