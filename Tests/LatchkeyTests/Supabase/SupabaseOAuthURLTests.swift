import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// supabase-swift's `getOAuthSignInURL(provider:scopes:redirectTo:queryParams:)` and `signInWithOAuth`, with a
/// typed provider, generated from `flows.authorizationCode.parameters` in `supabase.json`.
@Suite("Supabase: typed OAuth sign-in URL", timeLimit(minutes: 2))
struct SupabaseOAuthURLTests {
    static let other = URL(string: "dev.example.app://other-callback")!

    @Test(
        "authorizationURL(provider:scopes:redirectTo:queryParams:) sends nothing; its URL carries the typed provider, the scopes, the per-call redirect_to, the S256 challenge and the query parameters; the code is exchanged"
    )
    func typedURL() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()

            let request = try await supabase.authorizationURL(
                provider: .github, scopes: ["repo", "read:user"], redirectTo: Self.other,
                queryParams: ["access_type": "offline"])

            #expect(harness.gotrue.requests.isEmpty, "preparing sends nothing")
            #expect(request.url.path == "/auth/v1/authorize")
            let challenge = try #require(request.url.supabaseQueryItems["code_challenge"])
            #expect(
                request.url.supabaseQueryItems == [
                    "provider": "github", "scopes": "repo read:user", "redirect_to": Self.other.absoluteString,
                    "code_challenge": challenge, "code_challenge_method": "s256", "access_type": "offline",
                ])
            #expect(request.redirectURI == Self.other)

            let callback = try await HeadlessUserAgent().follow(request.url, until: Self.other)
            harness.gotrue.resetRecording()
            let session = try await supabase.handleCallback(callback)

            #expect(harness.gotrue.requests.count == 1)
            let exchange = harness.gotrue.requests.last
            let verifier = (exchange?.jsonBody as? [String: Any])?["code_verifier"] as? String ?? ""
            #expect(PKCE.challenge(for: verifier) == challenge)
            expectGoTrueRequest(
                exchange, "POST", "/token", query: ["grant_type": "pkce"],
                body: ["auth_code": callback.supabaseQueryItems["code"] ?? "", "code_verifier": verifier])
            #expect(session.user?.email == "ada@example.com")
        }
    }

    @Test(
        "signInWithBrowser(provider:…using:) plays the browser and signs in; a query parameter the typed provider or the sign-in sets fails before anything"
    )
    func typedBrowserSignIn() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()

            let session = try await supabase.signInWithBrowser(provider: .google, using: HeadlessUserAgent())

            let authorize = try #require(harness.gotrue.requests("/authorize").first)
            #expect(authorize.query("provider") == "google")
            #expect(authorize.query("redirect_to") == SupabaseAppURLs.callback.absoluteString)
            #expect(harness.gotrue.requests("/token").count == 1)
            #expect(session.user?.email == "ada@example.com")

            harness.gotrue.resetRecording()
            let typed = await caughtAuthError {
                _ = try await supabase.authorizationURL(provider: .google, queryParams: ["provider": "github"])
            }
            #expect(typed?.code == .validationFailed)
            let owned = await caughtAuthError {
                _ = try await supabase.authorizationURL(provider: .google, queryParams: ["code_challenge": "x"])
            }
            #expect(owned?.code == .invalidConfiguration)
            #expect(harness.gotrue.requests.isEmpty)
            #expect(AuthorizationProviderCheck.cases.contains("linkedin_oidc"))
        }
    }
}

/// The typed provider's raw values are the strings GoTrue expects.
enum AuthorizationProviderCheck {
    static let cases = SupabaseClient.AuthorizationProvider.allCases.map(\.rawValue)
}
