import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Redaction on the fragment (implicit) sign-in when the provider's own answer repeats a token the app never
/// sent it (the refresh token stays on the device during `GET /user`): the error still never carries it.
/// `SupabaseImplicitLinkTests.errorWithTokensIsRedacted` covers an error fragment; this covers the user request.
@Suite("Supabase: a fragment sign-in's errors never carry its tokens", timeLimit(minutes: 2))
struct SupabaseImplicitRedactionTests {
    @Test("GET /user fails quoting the fragment's refresh and access tokens: neither is in the error")
    func userFailureQuotingTokensIsRedacted() async throws {
        try await withSupabase { harness in
            let logs = LogCollector()
            let supabase = try harness.makeClient(redirectURIs: [:], logger: logs.logger)
            let token = GoTrueServer.jwt(["sub": "someone", "exp": Int(Date().timeIntervalSince1970) + 3600])
            let refresh = "fragment-refresh-5e4d3c2b"
            harness.gotrue.failNext(
                "/user", .http(status: 500, code: refresh, message: "could not load the user of \(refresh) / \(token)"))
            let url = URL(
                string: SupabaseAppURLs.callback.absoluteString + "#access_token=\(token)&expires_in=3600"
                    + "&refresh_token=\(refresh)&token_type=bearer&type=magiclink")!

            let error = await caughtAuthError { _ = try await supabase.client.handleCallback(url) }

            #expect(error != nil)
            expectNoSecrets(error, [token, refresh])
            #expect(logs.all.allSatisfy { !$0.message.contains(token) && !$0.message.contains(refresh) })
            #expect(harness.gotrue.requests.count == 1)
            #expect(supabase.client.state == .signedOut)
            #expect(try await harness.storeIsEmpty())
        }
    }
}
