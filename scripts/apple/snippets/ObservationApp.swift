// The model with Observation (iOS 17, macOS 14 and later): @State holds it and the views read it as plain
// properties; nothing else changes. Type-checked by scripts/apple/swiftui-snippets-check.sh.
import Latchkey
import SwiftUI

@available(iOS 17, macOS 14, *)
struct AccountScreen: View {
    @State private var auth = AuthModel(
        browserSignIn: try! OidcClient(
            issuer: URL(string: "https://id.example.com")!, clientID: "my-app",
            redirectURI: URL(string: "com.example.app://auth-callback")))

    var body: some View {
        AccountView(auth: auth)
            .task { await auth.restore() }
    }
}

@available(iOS 17, macOS 14, *)
struct AccountView: View {
    let auth: AuthModel

    var body: some View {
        if let principal = auth.principal {
            Text("Hello, \(principal.name ?? principal.id)")
        } else {
            SignInWithOidcButton(auth: auth)
            if auth.isSigningIn { ProgressView() }
        }
    }
}
