import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// supabase-swift's `signInWithSSO(domain:)`, `signInWithSSO(providerId:)` and `signInWithWeb3(credentials:)`,
/// generated from `supabase.json`, on the wire.
@Suite("Supabase: SSO and Web3 sign-in", timeLimit(minutes: 2))
struct SupabaseSSOTests {
    static let providerID = "0b5b7c36-6d0e-4c3f-9b2e-5b0d6c1a2f10"

    /// The URL an action answered with.
    static func url(_ result: ActionResult) -> URL? {
        guard case .document(.string(let text)) = result else { return nil }
        return URL(string: text)
    }

    @Test(
        "signInWithSSO(domain:): POST /sso with domain, redirect_to, skip_http_redirect, an S256 challenge and the CAPTCHA token; the IdP's callback code is exchanged"
    )
    func ssoByDomain() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()

            let result = try await supabase.signInWithSSO(domain: "acme.example", captchaToken: "c-9")

            #expect(harness.gotrue.requests.count == 1)
            let sso = try #require(harness.gotrue.requests.last)
            let challenge = (sso.jsonBody as? [String: Any])?["code_challenge"] as? String ?? ""
            expectGoTrueRequest(
                sso, "POST", "/sso",
                body: [
                    "domain": "acme.example", "redirect_to": SupabaseAppURLs.callback.absoluteString,
                    "skip_http_redirect": true, "code_challenge": challenge, "code_challenge_method": "s256",
                    "gotrue_meta_security": ["captcha_token": "c-9"],
                ])
            #expect(challenge.count == 43)
            let url = try #require(Self.url(result))
            #expect(!supabase.client.state.isSignedIn, "nothing is signed in before the IdP answers")

            let callback = try #require(harness.gotrue.consent(at: url, as: "grace@acme.example"))
            harness.gotrue.resetRecording()
            let session = try await supabase.client.handleCallback(callback)

            #expect(harness.gotrue.requests.count == 1)
            let exchange = harness.gotrue.requests.last
            let verifier = (exchange?.jsonBody as? [String: Any])?["code_verifier"] as? String ?? ""
            #expect(PKCE.challenge(for: verifier) == challenge)
            expectGoTrueRequest(
                exchange, "POST", "/token", query: ["grant_type": "pkce"],
                body: ["auth_code": callback.supabaseQueryItems["code"] ?? "", "code_verifier": verifier])
            #expect(session.user?.email == "grace@acme.example")
            #expect(try await harness.storedPending() == nil)
        }
    }

    @Test(
        "signInWithSSO(providerId:redirectTo:): provider_id and the given redirect_to; a redirect the app does not handle gets no challenge and leaves nothing pending"
    )
    func ssoByProviderID() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let web = URL(string: "https://example.com/after-sso")!

            let result = try await supabase.signInWithSSO(providerId: Self.providerID, redirectTo: web)

            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/sso",
                body: ["provider_id": Self.providerID, "redirect_to": web.absoluteString, "skip_http_redirect": true])
            #expect(Self.url(result) != nil)
            #expect(try await harness.storedPending() == nil)

            let unknown = await caughtAuthError { _ = try await supabase.signInWithSSO(domain: "nowhere.example") }
            #expect(unknown?.providerCode == "sso_domain_not_found")
            #expect(!supabase.client.state.isSignedIn)
        }
    }

    @Test(
        "signInWithWeb3: POST /token?grant_type=web3 with chain, message and signature (and the CAPTCHA token); a session"
    )
    func web3() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let message =
                "example.com wants you to sign in with your Ethereum account:\n0xAbC0000000000000000000000000000000000001\n\nURI: https://example.com\nVersion: 1\nChain ID: 1\nNonce: 32891756\nIssued At: 2026-12-05T00:00:00Z"
            let signature = "0x" + String(repeating: "ab", count: 65)

            let result = try await supabase.signInWithWeb3(chain: .ethereum, message: message, signature: signature)

            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/token", query: ["grant_type": "web3"],
                body: ["chain": "ethereum", "message": message, "signature": signature])
            guard case .session(let session) = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(session.user?.email == "0xabc0000000000000000000000000000000000001@ethereum.web3.invalid")
            #expect(try await harness.storedSession()?["accessToken"] as? String == session.accessToken)

            let solana = "example.com wants you to sign in with your Solana account:\nFh3Xq\n\nURI: https://example.com"
            let solanaSignature = Data(repeating: 7, count: 64).base64EncodedString()
            _ = try await supabase.signInWithWeb3(
                chain: .solana, message: solana, signature: solanaSignature, captchaToken: "c-w")
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/token", query: ["grant_type": "web3"],
                body: [
                    "chain": "solana", "message": solana, "signature": solanaSignature,
                    "gotrue_meta_security": ["captcha_token": "c-w"],
                ])

            let bad = await caughtAuthError {
                _ = try await supabase.signInWithWeb3(chain: .ethereum, message: message, signature: "0x12")
            }
            #expect(bad?.code == .invalidRequest)
            harness.gotrue.resetRecording()
            let chain = await caughtAuthError {
                _ = try await supabase.client.perform(
                    action: "signInWithWeb3",
                    arguments: ["chain": .string("bitcoin"), "message": .string(message), "signature": .string("x")])
            }
            #expect(chain?.code == .validationFailed)
            #expect(harness.gotrue.requests.isEmpty)
        }
    }
}
