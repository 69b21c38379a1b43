import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("ProviderSimulator: DPoP (RFC 9449) with OktaClient", timeLimit(minutes: 2))
struct SimulatorDPoPTests {
    @Test("Tokens are bound to the proof's key, refreshed with a proof of the same key, presented as DPoP with ath")
    func boundTokensEndToEnd() async throws {
        try await withSimulator(OktaClient.provider) { simulator in
            let okta = try oktaSenderConstrainedClient(simulator)
            let session = try await okta.client.signInWithBrowser(using: simulator.browser)
            #expect(session.tokenType.caseInsensitiveCompare("DPoP") == .orderedSame)

            let exchange = try #require(simulator.tokenRequests.first)
            let exchangeProof = try #require(exchange.header("DPoP"))
            let key = try #require(ProviderSimulator.dpopKeyThumbprint(ofProof: exchangeProof))
            #expect(simulator.dpopKeyThumbprint(boundTo: session.accessToken) == key)
            #expect(simulator.dpopKeyThumbprint(boundTo: try #require(session.refreshToken)) == key)
            let exchangeClaims = try dpopClaims(exchangeProof)
            #expect(exchangeClaims["htm"] as? String == "POST")
            #expect(exchangeClaims["htu"] as? String == simulator.url(exchange.path).absoluteString)
            #expect(exchangeClaims["ath"] == nil)

            let refreshed = try await okta.client.currentSession(forceRefresh: true)
            let tokenRequests = simulator.tokenRequests
            #expect(tokenRequests.count == 2)
            #expect(tokenRequests.last?.formBody["grant_type"] == "refresh_token")
            let refreshProof = try #require(tokenRequests.last?.header("DPoP"))
            #expect(ProviderSimulator.dpopKeyThumbprint(ofProof: refreshProof) == key)
            #expect(simulator.dpopKeyThumbprint(boundTo: refreshed.accessToken) == key)
            #expect(refreshed.tokenType.caseInsensitiveCompare("DPoP") == .orderedSame)

            let user = try await okta.client.fetchUser()
            #expect(user.name == "Ada Lovelace")
            let userInfo = try #require(simulator.requests(to: .request("userInfo")).last)
            #expect(userInfo.header("Authorization") == "DPoP \(refreshed.accessToken)")
            #expect(try dpopClaims(userInfo.header("DPoP"))["ath"] as? String == accessTokenHash(refreshed.accessToken))

            let response = try await okta.client.send(TransportRequest(method: "GET", url: simulator.protectedURL))
            #expect(response.status == 200)
            let protected = try #require(simulator.requests.last { $0.path == "/protected" })
            #expect(protected.header("Authorization") == "DPoP \(refreshed.accessToken)")
            let claims = try dpopClaims(protected.header("DPoP"))
            #expect(claims["ath"] as? String == accessTokenHash(refreshed.accessToken))
            #expect(claims["htm"] as? String == "GET")
            #expect(claims["htu"] as? String == simulator.protectedURL.absoluteString)

            // The bound token used as a bearer token is refused with a DPoP challenge.
            let bearer = try await protectedRequest(
                simulator, headers: [("Authorization", "Bearer \(refreshed.accessToken)")])
            #expect(bearer.status == 401)
            #expect(bearer.header("WWW-Authenticate")?.hasPrefix(#"DPoP error="invalid_token""#) == true)

            let discovery = try await discoveryDocument(simulator)
            #expect(discovery["dpop_signing_alg_values_supported"] as? [String] == ["ES256"])
        }
    }

    @Test(
        "Each catalog descriptor declaring DPoP and PAR: a pushed sign-in, bound tokens, refresh, /protected",
        arguments: ["oidc", "okta", "auth0", "keycloak"])
    func catalogDescriptors(name: String) async throws {
        let spec = try ConformanceHarness.spec(named: name)
        #expect(spec.senderConstraint.dpop == .optional)
        #expect(spec.senderConstraint.pushedAuthorization != nil)
        try await withSimulator(spec) { simulator in
            var options = AuthClientOptions(transport: simulator.transport, store: InMemorySessionStore())
            options.usesDPoP = true
            options.pushesAuthorizationRequests = true
            let client = try AuthClient(
                provider: spec,
                configuration: simulator.configuration(redirectURI: ConformanceHarness.redirectURI(for: spec)),
                options: options)
            let session = try await client.signInWithBrowser(using: simulator.browser)
            #expect(session.tokenType == "DPoP")
            #expect(simulator.requests(to: .pushedAuthorization).count == 1)
            let authorize = try #require(simulator.requests(to: .authorize).first)
            #expect(Set(authorize.queryItems.map(\.name)) == ["client_id", "request_uri"])
            let refreshed = try await client.currentSession(forceRefresh: true)
            let keys = simulator.tokenRequests.map {
                ProviderSimulator.dpopKeyThumbprint(ofProof: $0.header("DPoP") ?? "")
            }
            #expect(keys.count == 2)
            #expect(Set(keys).count == 1)
            #expect(keys.first == simulator.dpopKeyThumbprint(boundTo: refreshed.accessToken))
            let response = try await client.send(TransportRequest(method: "GET", url: simulator.protectedURL))
            #expect(response.status == 200)
        }
    }

    @Test("A nonce challenge is met by exactly one retry, at the token endpoint and at the resource")
    func nonceChallenge() async throws {
        try await withSimulator(OktaClient.provider) { simulator in
            simulator.requireDPoPNonce()
            let okta = try oktaSenderConstrainedClient(simulator)
            let session = try await okta.client.signInWithBrowser(using: simulator.browser)
            #expect(session.tokenType.caseInsensitiveCompare("DPoP") == .orderedSame)

            let tokenRequests = simulator.tokenRequests
            #expect(tokenRequests.count == 2)
            let first = try dpopClaims(tokenRequests.first?.header("DPoP"))
            let retry = try dpopClaims(tokenRequests.last?.header("DPoP"))
            #expect(first["nonce"] == nil)
            let nonce = try #require(retry["nonce"] as? String)
            #expect(first["jti"] as? String != retry["jti"] as? String)

            // A new nonce: the resource asks for it once, and the retry carries it.
            simulator.requireDPoPNonce()
            let response = try await okta.client.send(TransportRequest(method: "GET", url: simulator.protectedURL))
            #expect(response.status == 200)
            let resourceRequests = simulator.requests.filter { $0.path == "/protected" }
            #expect(resourceRequests.count == 2)
            #expect(try dpopClaims(resourceRequests.first?.header("DPoP"))["nonce"] as? String == nonce)
            let newNonce = try #require(try dpopClaims(resourceRequests.last?.header("DPoP"))["nonce"] as? String)
            #expect(newNonce != nonce)
        }
    }

    @Test("A replayed proof is refused at the resource and at the token endpoint; a bound refresh needs a proof")
    func replayedProofs() async throws {
        try await withSimulator(OktaClient.provider) { simulator in
            let okta = try oktaSenderConstrainedClient(simulator)
            let session = try await okta.client.signInWithBrowser(using: simulator.browser)
            let first = try await okta.client.send(TransportRequest(method: "GET", url: simulator.protectedURL))
            #expect(first.status == 200)

            let sent = try #require(simulator.requests.last { $0.path == "/protected" })
            let replayed = try await protectedRequest(
                simulator,
                headers: [
                    ("Authorization", try #require(sent.header("Authorization"))),
                    ("DPoP", try #require(sent.header("DPoP"))),
                ])
            #expect(replayed.status == 401)
            #expect(replayed.header("WWW-Authenticate")?.hasPrefix(#"DPoP error="invalid_dpop_proof""#) == true)

            // The code exchange sent again with its own proof: the proof is refused before the used code is.
            let exchange = try #require(simulator.tokenRequests.first)
            let again = try await simulator.transport.send(
                TransportRequest(
                    method: "POST", url: simulator.url(exchange.path),
                    headers: [
                        ("Content-Type", "application/x-www-form-urlencoded"),
                        ("DPoP", try #require(exchange.header("DPoP"))),
                    ], body: exchange.body))
            #expect(again.status == 400)
            let body = try JSONSerialization.jsonObject(with: again.body) as? [String: Any]
            #expect(body?["error"] as? String == "invalid_dpop_proof")

            // The bound refresh token without a proof is refused, and stays usable with one.
            let refreshToken = try #require(session.refreshToken)
            let withoutProof = try await simpleRequest(
                simulator.url(exchange.path), method: "POST",
                form: ["grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": "demo-client"])
            #expect(withoutProof.status == 400)
            #expect(withoutProof.json["error"] as? String == "invalid_dpop_proof")
            let refreshed = try await okta.client.currentSession(forceRefresh: true)
            #expect(refreshed.refreshToken != refreshToken)
        }
    }

    @Test("A proof made for another URL, or presented with another token, is refused at the resource")
    func mismatchedProofs() async throws {
        try await withSimulator(OktaClient.provider) { simulator in
            let okta = try oktaSenderConstrainedClient(simulator)
            let session = try await okta.client.signInWithBrowser(using: simulator.browser)

            let elsewhere = try await okta.client.authorizedRequest(
                TransportRequest(method: "GET", url: simulator.url("/elsewhere")))
            let wrongURL = try await protectedRequest(simulator, headers: elsewhere.headers)
            #expect(wrongURL.status == 401)
            #expect(wrongURL.header("WWW-Authenticate")?.hasPrefix(#"DPoP error="invalid_dpop_proof""#) == true)

            // A fresh proof for /protected whose ath is not the presented token's hash.
            let other = try await okta.client.currentSession(forceRefresh: true)
            #expect(other.accessToken != session.accessToken)
            var proofOnly = try await okta.client.authorizedRequest(
                TransportRequest(method: "GET", url: simulator.protectedURL))
            proofOnly.setHeader("Authorization", "DPoP \(session.accessToken)")
            let wrongToken = try await protectedRequest(simulator, headers: proofOnly.headers)
            #expect(wrongToken.status == 401)
            #expect(wrongToken.header("WWW-Authenticate")?.hasPrefix(#"DPoP error="invalid_dpop_proof""#) == true)

            // The same kind of request made properly is accepted.
            let proper = try await okta.client.authorizedRequest(
                TransportRequest(method: "GET", url: simulator.protectedURL))
            #expect(try await protectedRequest(simulator, headers: proper.headers).status == 200)
        }
    }

    @Test("A provider that requires DPoP refuses a token request without a proof")
    func requiredDPoP() async throws {
        var spec = OktaClient.provider
        spec.senderConstraint.dpop = .required
        try await withSimulator(spec) { simulator in
            let response = try await simpleRequest(
                simulator.url("/token"), method: "POST",
                form: ["grant_type": "authorization_code", "code": "unknown", "client_id": "demo-client"])
            #expect(response.status == 400)
            #expect(response.json["error"] as? String == "invalid_dpop_proof")
        }
    }
}
