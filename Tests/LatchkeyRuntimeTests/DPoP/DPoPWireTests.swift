import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// DPoP (RFC 9449) on the wire, against a server on 127.0.0.1 that checks every proof independently.
@Suite("DPoP: proofs on the wire", timeLimit(minutes: 2))
struct DPoPWireTests {
    @Test("sign-in, refresh and a resource request prove the same key; the resource proof carries ath")
    func signInRefreshResource() async throws {
        let harness = try DPoPHarness()
        let client = try harness.client()
        let session = try await client.signIn(username: "ada", password: "pw")
        #expect(session.tokenType == "DPoP")
        let signInKey = try #require(harness.server.proofKeys("/token").first)
        #expect(session.dpopKey?.thumbprint == signInKey)

        let refreshed = try await client.currentSession(forceRefresh: true)
        #expect(refreshed.accessToken != session.accessToken)
        #expect(harness.server.proofKeys("/token") == [signInKey, signInKey])

        let response = try await client.send(harness.resource())
        #expect(response.status == 200)
        #expect(response.jsonObject["scheme"] as? String == "DPoP")
        #expect(harness.server.proofKeys("/resource") == [signInKey])
        let sent = try #require(harness.server.requests("/resource").last)
        #expect(sent.header("Authorization") == "DPoP \(refreshed.accessToken)")
        #expect(harness.server.refusals.isEmpty)
    }

    @Test("a token endpoint's use_dpop_nonce is retried exactly once with its nonce, which later proofs carry")
    func tokenNonceRetry() async throws {
        var settings = DPoPServerCore.Settings()
        settings.tokenNonce = "nonce-token-1"
        let harness = try DPoPHarness(settings)
        let client = try harness.client()
        _ = try await client.signIn(username: "ada", password: "pw")
        let first = harness.server.requests("/token")
        #expect(first.count == 2)
        #expect(try claims(first[0].header("DPoP"))["nonce"] == nil)
        #expect(try claims(first[1].header("DPoP"))["nonce"] as? String == "nonce-token-1")

        _ = try await client.currentSession(forceRefresh: true)
        let all = harness.server.requests("/token")
        #expect(all.count == 3)  // the refresh carried the nonce at once: no second retry
        #expect(try claims(all[2].header("DPoP"))["nonce"] as? String == "nonce-token-1")
    }

    @Test(
        "a DPoP-Nonce that is not a nonce (RFC 9449 §8.1: a space, a quote, a backslash) is neither remembered nor retried",
        arguments: ["bad nonce", #"quote"d"#, #"back\slash"#])
    func malformedNonceIsRefused(nonce: String) async throws {
        var settings = DPoPServerCore.Settings()
        settings.tokenNonce = nonce
        let harness = try DPoPHarness(settings)
        let client = try harness.client()
        await expectAuthError(.useDPoPNonce) { _ = try await client.signIn(username: "ada", password: "pw") }
        let sent = harness.server.requests("/token")
        #expect(sent.count == 1)  // no retry: it could only carry no nonce again
        #expect(try sent.allSatisfy { try claims($0.header("DPoP"))["nonce"] == nil })
    }

    @Test("a server that keeps asking for a nonce gets exactly one retry: use_dpop_nonce, or its 401")
    func nonceRetryIsBounded() async throws {
        let harness = try DPoPHarness()
        let client = try harness.client()
        _ = try await client.signIn(username: "ada", password: "pw")
        harness.server.update {
            $0.nonceRotates = true
            $0.tokenNonce = "t"
            $0.resourceNonce = "r"
        }
        let response = try await client.send(harness.resource())
        #expect(response.status == 401)
        #expect(harness.server.requests("/resource").count == 2)

        await expectAuthError(.useDPoPNonce) { _ = try await client.currentSession(forceRefresh: true) }
        #expect(harness.server.requests("/token").count == 3)  // the sign-in, then the refresh and its one retry
    }

    @Test("a resource server's 401 use_dpop_nonce is retried exactly once with its nonce")
    func resourceNonceRetry() async throws {
        var settings = DPoPServerCore.Settings()
        settings.resourceNonce = "nonce-resource-1"
        let harness = try DPoPHarness(settings)
        let client = try harness.client()
        _ = try await client.signIn(username: "ada", password: "pw")
        let response = try await client.send(harness.resource())
        #expect(response.status == 200)
        let sent = harness.server.requests("/resource")
        #expect(sent.count == 2)
        #expect(try claims(sent[0].header("DPoP"))["nonce"] == nil)
        #expect(try claims(sent[1].header("DPoP"))["nonce"] as? String == "nonce-resource-1")
        #expect(
            try claims(sent[0].header("DPoP"))["jti"] as? String != claims(sent[1].header("DPoP"))["jti"] as? String)

        _ = try await client.send(harness.resource())
        #expect(harness.server.requests("/resource").count == 3)
    }

    @Test("an authorization server and a resource server on one origin keep their own nonces: no retry after the first")
    func sameOriginServersKeepTheirNonces() async throws {
        var settings = DPoPServerCore.Settings()
        settings.tokenNonce = "nonce-token-1"
        settings.resourceNonce = "nonce-resource-1"
        let harness = try DPoPHarness(settings)
        let client = try harness.client()
        _ = try await client.signIn(username: "ada", password: "pw")  // the token endpoint asks once
        #expect(try await client.send(harness.resource()).status == 200)  // the resource server asks once
        #expect(harness.server.requests("/token").count == 2)
        #expect(harness.server.requests("/resource").count == 2)

        // Each server's nonce went into its next proof at once: no more retries, alternating as they may.
        _ = try await client.currentSession(forceRefresh: true)
        #expect(try await client.send(harness.resource()).status == 200)
        _ = try await client.currentSession(forceRefresh: true)
        let token = harness.server.requests("/token")
        let resource = harness.server.requests("/resource")
        #expect(token.count == 4)
        #expect(resource.count == 3)
        #expect(try token[2...].allSatisfy { try claims($0.header("DPoP"))["nonce"] as? String == "nonce-token-1" })
        #expect(try claims(resource[2].header("DPoP"))["nonce"] as? String == "nonce-resource-1")
        #expect(harness.server.refusals.filter { $0 != "use_dpop_nonce" }.isEmpty)
    }

    @Test("a replayed proof and a proof for another URL are refused; htu leaves out the query")
    func replayAndWrongTarget() async throws {
        let harness = try DPoPHarness()
        let client = try harness.client()
        _ = try await client.signIn(username: "ada", password: "pw")
        let transport = URLSessionHTTPTransport()

        let authorized = try await client.authorizedRequest(harness.resource("?page=2#top"))
        #expect(
            try claims(authorized.header("DPoP"))["htu"] as? String
                == harness.server.server.url("/resource").absoluteString)
        #expect(try await transport.send(authorized).status == 200)
        #expect(try await transport.send(authorized).status == 401)
        #expect(harness.server.refusals.last == "/resource: replayed jti")

        var retargeted = try await client.authorizedRequest(
            TransportRequest(method: "GET", url: harness.server.server.url("/other")))
        retargeted.url = harness.server.server.url("/resource")
        #expect(try await transport.send(retargeted).status == 401)
        #expect(harness.server.refusals.last == "/resource: htu")
    }

    @Test("token_type DPoP without a proof, and Bearer where DPoP is required, are dpop_binding_mismatch")
    func tokenTypeMismatch() async throws {
        let harness = try DPoPHarness()
        harness.server.update { $0.tokenTypeWithoutProof = "DPoP" }
        let plain = try harness.client(dpop: .optional, usesDPoP: false)
        await expectAuthError(.dpopBindingMismatch) { _ = try await plain.signIn(username: "ada", password: "pw") }
        #expect(harness.server.requests("/token").allSatisfy { $0.header("DPoP") == nil })
        #expect(await plain.cachedSession == nil)

        harness.server.update { $0.tokenTypeWithProof = "Bearer" }
        let required = try harness.client(dpop: .required)
        await expectAuthError(.dpopBindingMismatch) { _ = try await required.signIn(username: "ada", password: "pw") }
        #expect(harness.server.requests("/token").last?.header("DPoP") != nil)

        // Optional DPoP whose access token the server did not bind: a bearer session, resource requests without
        // proofs.
        let optional = try harness.client(dpop: .optional, usesDPoP: true)
        let session = try await optional.signIn(username: "ada", password: "pw")
        #expect(session.tokenType == "Bearer")
        let response = try await optional.send(harness.resource())
        #expect(response.jsonObject["scheme"] as? String == "Bearer")
        #expect(harness.server.requests("/resource").last?.header("DPoP") == nil)
    }

    @Test("a Bearer access token with a DPoP-bound refresh token (RFC 9449 §5): refreshes prove the sign-in's key")
    func boundRefreshTokenOnly() async throws {
        let harness = try DPoPHarness()
        // The server binds the refresh token to the proof's key and answers `Bearer` (as Google does).
        harness.server.update { $0.tokenTypeWithProof = "Bearer" }
        let client = try harness.client(dpop: .optional, usesDPoP: true)
        let session = try await client.signIn(username: "ada", password: "pw")
        #expect(session.tokenType == "Bearer")
        let signInKey = try #require(harness.server.proofKeys("/token").first)

        let refreshed = try await client.currentSession(forceRefresh: true)
        #expect(refreshed.accessToken != session.accessToken)
        #expect(refreshed.tokenType == "Bearer")
        #expect(harness.server.proofKeys("/token") == [signInKey, signInKey])
        let again = try await client.currentSession(forceRefresh: true)
        #expect(again.accessToken != refreshed.accessToken)
        #expect(harness.server.proofKeys("/token") == [signInKey, signInKey, signInKey])
        #expect(harness.server.refusals.isEmpty)

        // The bearer access token carries no proof.
        let response = try await client.send(harness.resource())
        #expect(response.jsonObject["scheme"] as? String == "Bearer")
        #expect(harness.server.requests("/resource").allSatisfy { $0.header("DPoP") == nil })

        // A relaunch over the same store keeps the key the refresh token is bound to.
        let relaunched = try harness.client(dpop: .optional, usesDPoP: true)
        _ = try await relaunched.currentSession(forceRefresh: true)
        #expect(harness.server.proofKeys("/token").last == signInKey)
        #expect(harness.server.refusals.isEmpty)
    }

    @Test("the key survives a relaunch over the same store; a new sign-in gets a new key")
    func keySurvivesRestore() async throws {
        let harness = try DPoPHarness()
        let first = try harness.client()
        _ = try await first.signIn(username: "ada", password: "pw")
        let key = try #require(harness.server.proofKeys("/token").first)

        let relaunched = try harness.client()
        await relaunched.restore()
        #expect(try await relaunched.send(harness.resource()).status == 200)
        _ = try await relaunched.currentSession(forceRefresh: true)
        #expect(harness.server.proofKeys("/resource") == [key])
        #expect(harness.server.proofKeys("/token") == [key, key])

        _ = try await relaunched.signIn(username: "ada", password: "pw")
        let keys = harness.server.proofKeys("/token")
        #expect(keys.count == 3 && keys[2] != key)
    }

    @Test("a descriptor without DPoP refuses usesDPoP; discovery without ES256 is invalid_configuration")
    func configurationChecks() async throws {
        let harness = try DPoPHarness()
        await expectAuthError(.invalidConfiguration) { _ = try harness.client(dpop: .never, usesDPoP: true) }
        // usesDPoP is ignored by nothing else: a `never` client sends no proof.
        let never = try harness.client(dpop: .never)
        _ = try await never.signIn(username: "ada", password: "pw")
        #expect(harness.server.requests("/token").last?.header("DPoP") == nil)

        // dpop_signing_alg_values_supported without ES256: discovery fails before any token request.
        harness.server.update { $0.dpopAlgorithms = ["RS256", "PS256"] }
        let tokenRequests = harness.server.requests("/token").count
        let unsupported = try harness.client(discovers: true)
        await expectAuthError(.invalidConfiguration) { _ = try await unsupported.discover() }
        await expectAuthError(.invalidConfiguration) { _ = try await unsupported.signIn(username: "a", password: "p") }
        #expect(harness.server.requests("/token").count == tokenRequests)
        // A server that lists ES256 (a store of its own: the other document is cached in the first one).
        let listing = try DPoPHarness()
        let supported = try listing.client(discovers: true)
        #expect(try await supported.discover()["token_endpoint"] != nil)
    }

    private func claims(_ proof: String?) throws -> [String: Any] {
        let parts = try #require(proof).split(separator: ".")
        let bytes = try #require(Base64URL.decode(String(parts[1])))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }
}
