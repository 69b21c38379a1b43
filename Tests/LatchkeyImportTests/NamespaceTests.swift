// This file imports Latchkey the way an app does: plainly, with no @_spi and no LatchkeyRuntime. If Latchkey
// re-exported the whole runtime again, every unqualified use of a fixture type below would be ambiguous and
// this target would not compile.
import Foundation
import Latchkey
import LatchkeyNamespaceFixture
import Testing

@Suite("import Latchkey: the façade, and nothing of the runtime's internals")
struct NamespaceTests {
    @Test("an app's own SHA256, HTTPRequest, JSON, PKCE, ... stay unambiguous beside import Latchkey")
    func appTypesDoNotCollide() {
        let names = [
            "\(type(of: SHA256()))", "\(type(of: HTTPRequest()))", "\(type(of: JSON()))", "\(type(of: PKCE()))",
            "\(type(of: Base64URL()))", "\(type(of: JSONWebKey()))", "\(type(of: JWSToken()))",
            "\(type(of: SignatureAlgorithm()))", "\(type(of: RandomToken()))",
            "\(type(of: LoopbackRedirectServer()))", "\(type(of: ProviderSpec()))", "\(type(of: AuthClient()))",
        ]
        #expect(names == fixtureTypeNames)
        #expect(String(reflecting: JSON.self) == "LatchkeyNamespaceFixture.JSON")
        #expect(String(reflecting: AuthClient.self) == "LatchkeyNamespaceFixture.AuthClient")
    }

    @Test("the façade is all there: a generated client, Auth, sessions, errors, options and stores")
    func facadeIsVisible() throws {
        var options = AuthClientOptions(store: InMemorySessionStore())
        options.refreshLeeway = .seconds(60)
        let exported: SessionImport = .supabaseSwift(file: URL(fileURLWithPath: "/nonexistent/supabase-session.json"))
        options.sessionImport = exported
        #expect(SessionImport.supabaseSwiftStorageKey == "supabase.auth.token")
        let supabase = try SupabaseClient(
            projectURL: URL(string: "https://abcd.supabase.co")!, publishableKey: "sb_publishable_test",
            options: options)
        let auth = Auth(supabase)
        #expect(auth.providerName == "Supabase Auth")
        #expect(supabase.state == .loading)
        let error: AuthError? = nil
        let session: Session? = nil
        let state: AuthState = .signedOut
        #expect(error == nil && session == nil && state == .signedOut)
        let registry = AuthRegistry()
        _ = CallbackRouter(registry: registry)
        _ = AutomaticRefresh.standard
        let _: any SessionStore = InMemorySessionStore()
        let _: any HTTPTransport = URLSessionHTTPTransport()
    }

    @Test("an app reads an error's code and kind by their cases, with only import Latchkey (member import visibility)")
    func errorCodesAndKindsAreUsable() {
        let error = AuthError(.loginCancelled, "closed")
        #expect(error.code == .loginCancelled)
        #expect(error.kind == .cancelled)
        let advice: String
        switch error.kind {
        case .cancelled: advice = "nothing to show"
        case .transport: advice = "offline"
        default: advice = "show the message"
        }
        #expect(advice == "nothing to show")
        // The clock an app may inject is part of the façade too.
        let clock: any LatchkeyClock = SystemClock()
        #expect(clock.now.timeIntervalSince1970 > 0)
    }
}
