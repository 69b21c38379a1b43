// The SwiftUI app of the documentation (SignInAndSignOut.md, README): a model every supported OS observes
// (@StateObject), the session restored at launch, and the generated button signing in through SwiftUI's web
// authentication session, with no window handed over. Type-checked by scripts/apple/swiftui-snippets-check.sh.
import Latchkey
import SwiftUI

/// The app's one client, made once.
enum Identity {
    static let baseIdP: BaseIdPClient = {
        do {
            return try BaseIdPClient(
                clientID: "my-client-key", redirectURI: URL(string: "com.example.app://auth-callback"))
        } catch {
            fatalError("Base IdP is misconfigured: \(error)")
        }
    }()
}

@main
struct MyApp: App {
    @StateObject private var auth = AuthModel(browserSignIn: Identity.baseIdP)

    var body: some Scene {
        WindowGroup {
            RootView(auth: auth)
                .task { await auth.restore() }
        }
    }
}

struct RootView: View {
    @ObservedObject var auth: AuthModel

    var body: some View {
        switch auth.state {
        case .loading:
            ProgressView()
        case .signedIn(let user):
            VStack {
                Text("Signed in as \(user.name ?? user.id)")
                Button("Sign out") { Task { await auth.signOut() } }
            }
        case .signedOut, .authenticating, .failed:
            VStack {
                SignInWithBaseIdPButton(auth: auth)
                if let error = auth.lastError {
                    Text("Sign-in failed (\(error.code.rawValue)).")
                }
            }
        }
    }
}
