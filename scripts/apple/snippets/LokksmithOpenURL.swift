// The Latchkey equivalent of the Kotlin Multiplatform guide's iOS app, which routes the redirect with SwiftUI's
// `.onOpenURL { url in ... }` into its shared Kotlin code (Migrating.md, "From Lokksmith"): the URL goes to the
// client's handleCallback(_:), which completes the sign-in also after a cold start (ColdStartCallbacks.md).
// Type-checked by scripts/apple/swiftui-snippets-check.sh.
import Latchkey
import SwiftUI

/// The app's one OpenID client, made once (Lokksmith: `lokksmith.getOrCreate(key) { id; discoveryUrl }`).
enum Identity {
    static let oidc: OidcClient = {
        do {
            return try OidcClient(
                issuer: URL(string: "https://login.example.com")!, clientID: "my-client-id",
                redirectURI: URL(string: "com.example.app:/callback")!)
        } catch {
            fatalError("The OpenID client is misconfigured: \(error)")
        }
    }()
}

@main
struct KMPStyleApp: App {
    @State private var lastError: String?

    var body: some Scene {
        WindowGroup {
            Text(lastError ?? "Waiting for the sign-in")
                .onOpenURL { url in
                    Task {
                        // Only URLs of a sign-in this client started (redirect URI and pending state).
                        guard await Identity.oidc.canHandle(url) else { return }
                        do throws(AuthError) {
                            try await Identity.oidc.handleCallback(url)
                        } catch {
                            lastError = error.code.rawValue
                        }
                    }
                }
        }
    }
}
