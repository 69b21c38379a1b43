import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// The DPoP and PAR behaviour of the OpenID conformance suite's FAPI 2.0 security profile client tests
/// (`fapi2-security-profile-final-client-test-*`, `net.openid.conformance.fapi2spfinal`), replayed by
/// ``DPoPTestServer``: its authorization server and resource server share one origin but keep a nonce each, refuse
/// every proof without the current one (`use_dpop_nonce`), and move their nonce on after every accepted request
/// without announcing it; a token request's proof must carry no `ath`, a resource request's must.
@Suite("FAPI 2.0 client modules: DPoP and PAR on the wire", timeLimit(minutes: 2))
struct FAPI2ClientModuleWireTests {
    /// The suite's provider: PAR required and `iss` advertised by discovery, both servers asking for nonces.
    private static func suiteHarness(
        _ adjust: (inout DPoPServerCore.Settings) -> Void = { _ in }
    ) throws -> DPoPHarness {
        var settings = DPoPServerCore.Settings()
        settings.discoveryRequiresPushAndIssuer = true
        settings.tokenNonce = "as-1"
        settings.resourceNonce = "rs-1"
        settings.noncesRotateAfterSuccess = true
        adjust(&settings)
        return try DPoPHarness(settings)
    }

    /// A sign-in as the `oidc` descriptor makes it (DPoP optional and turned on, PAR when discovery requires it).
    private static func signIn(
        _ harness: DPoPHarness, transport: (any HTTPTransport)? = nil
    ) async throws -> (AuthClient, Session) {
        let client = try harness.client(
            dpop: .optional, pushed: .whenRequired, usesDPoP: true, discovers: true, transport: transport)
        let browser = PushedAuthorizationWireTests.Browser(
            harness.server, issuer: harness.server.baseURL.absoluteString)
        let session = try await client.signInWithLoopback(open: browser.open, timeout: .seconds(60))
        let opened = try #require(browser.opened.withLock { $0 }.first)
        let items = URLComponents(url: opened, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.map(\.name).sorted() == ["client_id", "request_uri"])
        return (client, session)
    }

    @Test("happy path: PAR with dpop_jkt and a proof; a push, token or resource request is retried once with the nonce")
    func happyPath() async throws {
        let harness = try Self.suiteHarness()
        let (client, session) = try await Self.signIn(harness)
        #expect(session.tokenType == "DPoP")
        let key = try #require(session.dpopKey?.thumbprint)

        // PAR: dpop_jkt and a proof of the same key (the suite's ExtractParAuthorizationCodeDpopBindingKey checks
        // they match); the authorization server refuses the proof for want of its nonce, the retry carries it.
        let pushes = harness.server.requests("/par")
        #expect(pushes.count == 2)
        #expect(pushes.allSatisfy { $0.formBody["dpop_jkt"] == key })
        #expect(try claims(pushes[0].header("DPoP"))["nonce"] == nil)
        #expect(try claims(pushes[1].header("DPoP"))["nonce"] as? String == "as-1")
        #expect(try pushes.allSatisfy { try claims($0.header("DPoP"))["ath"] == nil })
        #expect(harness.server.proofKeys("/par") == [key])

        // Token: the server moved its nonce on after the push without saying so; the proof with the old one is
        // refused, the retry carries the new one; never an ath.
        let exchange = harness.server.requests("/token")
        #expect(exchange.count == 2)
        #expect(try claims(exchange[0].header("DPoP"))["nonce"] as? String == "as-1")
        #expect(try claims(exchange[1].header("DPoP"))["nonce"] as? String == "as-1+")
        #expect(try exchange.allSatisfy { try claims($0.header("DPoP"))["ath"] == nil })

        // Resource, on the same origin: the authorization server's nonce is not the resource server's.
        let response = try await client.send(harness.resource())
        #expect(response.status == 200)
        let resource = harness.server.requests("/resource")
        #expect(resource.count == 2)
        #expect(try claims(resource[1].header("DPoP"))["nonce"] as? String == "rs-1")
        #expect(try resource.allSatisfy { try claims($0.header("DPoP"))["ath"] != nil })

        // Refresh: the authorization server moved its nonce on after the exchange; one more retry, then accepted.
        let refreshed = try await client.currentSession(forceRefresh: true)
        #expect(refreshed.dpopKey?.thumbprint == key)
        let all = harness.server.requests("/token")
        #expect(all.count == 4)
        #expect(try claims(all[3].header("DPoP"))["nonce"] as? String == "as-1++")
        #expect(harness.server.proofKeys("/token") == [key, key])
        #expect(harness.server.refusals.isEmpty)
    }

    @Test("happy path without DPoP nonces: one request each, no nonce in any proof")
    func happyPathNoNonce() async throws {
        let harness = try Self.suiteHarness {
            $0.tokenNonce = nil
            $0.resourceNonce = nil
        }
        let (client, _) = try await Self.signIn(harness)
        #expect(try await client.send(harness.resource()).status == 200)
        let sent =
            harness.server.requests("/par") + harness.server.requests("/token") + harness.server.requests("/resource")
        #expect(sent.count == 3)
        #expect(try sent.allSatisfy { try claims($0.header("DPoP"))["nonce"] == nil })
    }

    @Test("rs-dpop-auth-scheme-case-insensitivity: a 'dPoP' challenge asking for a nonce is retried once")
    func resourceSchemeCase() async throws {
        let harness = try Self.suiteHarness {
            $0.resourceNonceChallenge = #"dPoP error="use_dpop_nonce", error_description="nonce required""#
        }
        let (client, _) = try await Self.signIn(harness)
        #expect(try await client.send(harness.resource()).status == 200)
        #expect(harness.server.requests("/resource").count == 2)
    }

    @Test("token-type-case-insensitivity: token_type 'dPoP' binds the session; the resource gets DPoP and a proof")
    func tokenTypeCase() async throws {
        let harness = try Self.suiteHarness { $0.tokenTypeWithProof = "dPoP" }
        let (client, session) = try await Self.signIn(harness)
        #expect(session.dpopKey != nil)
        #expect(try await client.send(harness.resource()).status == 200)
        let sent = try #require(harness.server.requests("/resource").last)
        #expect(sent.header("Authorization") == "DPoP \(session.accessToken)")
        #expect(harness.server.refusals.isEmpty)
    }

    @Test("token-endpoint-response-without-expires_in: the session is kept and used, with no refresh")
    func noExpiresIn() async throws {
        let harness = try Self.suiteHarness { $0.tokenLifetime = nil }
        let (client, session) = try await Self.signIn(harness)
        #expect(session.expiresAt == nil)
        #expect(try await client.send(harness.resource()).status == 200)
        #expect(harness.server.requests("/token").count == 2)  // the exchange and its nonce retry: no refresh
    }

    @Test(
        "a use_dpop_nonce DPoP challenge after another scheme's, in one field or two, is retried once",
        arguments: [
            ([#"Bearer realm="api", DPoP error="use_dpop_nonce", algs="ES256""#], false),
            ([#"Bearer realm="api""#, #"DPoP algs="ES256", error="use_dpop_nonce""#], false),
            // URLSession hands the fields over as a dictionary: two fields arrive as one list.
            ([#"Bearer realm="api""#, #"DPoP algs="ES256", error="use_dpop_nonce""#], true),
        ])
    func challengeList(challenges: [String], overURLSession: Bool) async throws {
        let harness = try Self.suiteHarness { $0.resourceNonceChallenge = challenges[0] }
        harness.server.update { $0.extraResourceChallenges = Array(challenges.dropFirst()) }
        let (client, _) = try await Self.signIn(harness, transport: overURLSession ? URLSessionHTTPTransport() : nil)
        #expect(try await client.send(harness.resource()).status == 200)
        #expect(harness.server.requests("/resource").count == 2)
    }

    @Test("a DPoP challenge with another error is not a nonce request, whatever its description says")
    func otherErrorIsNotRetried() async throws {
        let harness = try Self.suiteHarness {
            $0.resourceNonceChallenge = #"DPoP error="invalid_token", error_description="no use_dpop_nonce here""#
        }
        let (client, _) = try await Self.signIn(harness)
        #expect(try await client.send(harness.resource()).status == 401)
        #expect(harness.server.requests("/resource").count == 1)
    }

    @Test("WWW-Authenticate challenges: schemes and parameter names without case, quoted values unescaped")
    func challengeParsing() {
        let read = { (field: String) in AuthenticationChallenges.values(of: "error", inScheme: "DPoP", of: field) }
        #expect(read(#"DPoP error="use_dpop_nonce""#) == ["use_dpop_nonce"])
        #expect(read(#"dpop ERROR=use_dpop_nonce"#) == ["use_dpop_nonce"])
        #expect(read(#"Bearer error="use_dpop_nonce", DPoP algs="ES256""#).isEmpty)
        #expect(read(#"Basic YWxhZGRpbjpvcGVuc2VzYW1l==, DPoP error = "a\"b""#) == [#"a"b"#])
        #expect(read(#"DPoPx error="use_dpop_nonce""#).isEmpty)
        #expect(read(#"DPoP error="unterminated"#) == ["unterminated"])
        #expect(read("").isEmpty && read(",,, ,").isEmpty && read("=,=\"").isEmpty)
    }

    private func claims(_ proof: String?) throws -> [String: Any] {
        let parts = try #require(proof?.split(separator: ".").map(String.init))
        let bytes = try #require(Base64URL.decode(parts[1]))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }
}
