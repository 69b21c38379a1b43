// The Base IdP guide's Swift snippets (Swift/SwiftUI guide, as issue 29 lists them), unchanged, with only
// `import BaseIdP`: this target depends on the BaseIdP product's target alone, so it compiles only while the module
// offers the guide's API. The SwiftUI snippet is scripts/apple/snippets/BaseIdPGuideApp.swift (stand-in SwiftUI).
// Snippets that would sign in or read the app's real store are compiled, not run.
import BaseIdP
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking  // Linux: URLRequest (not in the guide, which targets Apple platforms)
#endif

// "Create the client once, on the main actor."
@MainActor let auth = BaseIdPAuth(clientId: "sq_live_yourapp")

// "Or read BASE_IDP_CLIENT_ID and BASE_IDP_ISSUER from Info.plist."
@MainActor func configuredFromInfoPlist() throws -> BaseIdPAuth {
    let auth = try BaseIdPAuth(config: BaseIdPConfig.fromInfoPlist())
    return auth
}

// "Tests and previews: keep the session in memory."
@MainActor func inMemory() -> BaseIdPAuth {
    let auth = BaseIdPAuth(clientId: "sq_live_yourapp", store: InMemorySessionStore())
    return auth
}

// "Don't share cookies with Safari."
@MainActor func ephemeral() -> BaseIdPAuth {
    let auth = BaseIdPAuth(clientId: "sq_live_yourapp", prefersEphemeralSession: true)
    return auth
}

// "Sign in, then hand the session to your server."
@MainActor func signInAndHandOff(to url: URL) async throws {
    do {
        let session = try await auth.signIn()
        print("Signed in as \(session.principal.email ?? session.principal.id)")

        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: session.serverHandoff())
        _ = request
    } catch let error as BaseIdPError {
        switch error.code {
        case "login_cancelled":
            break  // The user closed the sheet.
        case "confidential_client_in_mobile":
            print("Use a public client key in the app.")
        default:
            print("Sign-in failed: \(error.code) \(error.message)")
        }
    }
}

// "Call your API with a fresh access token."
@MainActor func callAPI(_ url: URL) async throws -> URLRequest {
    let token = try await auth.validAccessToken()
    var request = URLRequest(url: url)
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    return request
}

// "Sign out."
@MainActor func signOut() {
    auth.signOut()
}

// "Show the state."
@MainActor func describe(_ auth: BaseIdPAuth) -> String {
    switch auth.state {
    case .signedOut:
        return "Signed out"
    case .authenticating:
        return "Signing in…"
    case .signedIn:
        return "Signed in as \(auth.principal?.email ?? "")"
    case .failed(let error):
        return "Sign-in failed: \(error.message)"
    }
}
