// The Base IdP guide's SwiftUI view (issue 29's list), unchanged: `@StateObject` over `BaseIdPAuth`, an exhaustive
// `switch auth.state` over the guide's four cases, `SignInWithBaseIdPButton`, and a synchronous `signOut()`.
// Type-checked by scripts/apple/swiftui-snippets-check.sh against the BaseIdP module (Generated/vendor/BaseIdP.swift).
import BaseIdP
import SwiftUI

@main
struct BaseIdPGuideApp: App {
    var body: some Scene {
        WindowGroup {
            ContentView()
        }
    }
}

struct ContentView: View {
    @StateObject private var auth = BaseIdPAuth(clientId: "sq_live_yourapp")

    var body: some View {
        switch auth.state {
        case .signedOut:
            SignInWithBaseIdPButton(auth: auth)
        case .authenticating:
            ProgressView()
        case .signedIn:
            VStack {
                Text("Signed in as \(auth.principal?.email ?? "")")
                Button("Sign out") { auth.signOut() }
            }
        case .failed(let error):
            VStack {
                Text(error.message)
                SignInWithBaseIdPButton(auth: auth)
            }
        }
    }
}
