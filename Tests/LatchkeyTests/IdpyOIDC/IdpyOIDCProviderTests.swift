import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

// Runs only with the idpyoidc provider: `LATCHKEY_IDPYOIDC_ISSUER` set (CI's `.ci/run`, or
// `ci-idpyoidc/start.sh` locally). Without it the suite is skipped locally; with `CI=true` it is enabled anyway,
// so a missing issuer or an unreachable provider fails instead of skipping.
@Suite(
    "Real DPoP + PAR provider (idpyoidc in ci-idpyoidc/)", .serialized, timeLimit(minutes: 3),
    .enabled(
        if: IdpyProvider.isEnabled,
        "set LATCHKEY_IDPYOIDC_ISSUER (LATCHKEY_IDPYOIDC_ISSUER=$(bash ci-idpyoidc/start.sh)) to run against idpyoidc"))
struct IdpyOIDCProviderTests {
    @Test("discovery: PAR required, DPoP with ES256, the issuer as configured")
    func discovery() async throws {
        let harness = try IdpyHarness()
        let values = try await harness.client.discover()
        #expect(values["issuer"] == harness.issuer.absoluteString)
        #expect(values["pushed_authorization_request_endpoint"] == harness.issuer.absoluteString + "/par")
        let document = try #require(harness.transport.all.first).json
        #expect(document["require_pushed_authorization_requests"] as? Bool == true)
        #expect(document["dpop_signing_alg_values_supported"] as? [String] == ["ES256"])
    }

    @Test("the oidc client signs in through PAR and DPoP: a DPoP token bound (cnf.jkt) to the session's key")
    func signIn() async throws {
        let harness = try IdpyHarness()
        let session = try await harness.signIn()
        let key = try #require(session.dpopKey)
        #expect(session.tokenType == "DPoP")
        #expect(idpyBoundThumbprint(session.accessToken) == key.thumbprint)

        // The parameters were pushed with the key's thumbprint; the browser opened only client_id and request_uri.
        let pushes = harness.transport.to("/par")
        try #require(pushes.count == 1)
        #expect(pushes[0].form["dpop_jkt"] == key.thumbprint)
        // ...and a proof of that key (RFC 9449 §10.1), which the server checked: POST, the endpoint, no ath.
        #expect(ProviderSimulator.dpopKeyThumbprint(ofProof: pushes[0].request.header("DPoP") ?? "") == key.thumbprint)
        let pushProof = idpyProofClaims(pushes[0].request)
        #expect(
            pushProof["htm"] as? String == "POST" && pushProof["htu"] as? String == harness.url("/par").absoluteString)
        #expect(pushProof["ath"] == nil && pushProof["nonce"] == nil)
        #expect(pushes[0].form["code_challenge_method"] == "S256" && pushes[0].form["client_id"] == "latchkey-public")
        #expect(pushes[0].response?.status == 201)
        let opened = try #require(harness.opened.value.first)
        #expect(opened.path == "/authorization")
        let items = URLComponents(url: opened, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.map(\.name).sorted() == ["client_id", "request_uri"])
        #expect(opened.oidcQuery("request_uri") == pushes[0].json["request_uri"] as? String)

        // The code exchange proved the key (htm, htu, no ath); userinfo got the token as DPoP, with its ath.
        let exchange = try #require(harness.transport.to("/token").first)
        #expect(exchange.form["grant_type"] == "authorization_code" && exchange.response?.status == 200)
        let proof = idpyProofClaims(exchange.request)
        #expect(proof["htm"] as? String == "POST" && proof["htu"] as? String == harness.url("/token").absoluteString)
        #expect(proof["ath"] == nil && proof["nonce"] == nil)
        let userInfo = try #require(harness.transport.to("/userinfo").first)
        #expect(userInfo.request.header("Authorization") == "DPoP \(session.accessToken)")
        #expect(idpyProofClaims(userInfo.request)["ath"] as? String == DPoPProof.accessTokenHash(session.accessToken))
        #expect(userInfo.response?.status == 200)
        #expect(session.user?.email == "ada@example.com" && session.user?.name == "Ada Lovelace")
        #expect(
            harness.transport.all.map(\.request.url.path) == [
                "/.well-known/openid-configuration", "/par", "/token", "/jwks", "/userinfo",
            ])
        #expect(harness.transport.to("/jwks").first?.request.header("DPoP") == nil, "no proof where no token goes")

        // The private key went nowhere: no request carried it, and the session does not show it.
        let secret = key.storedForm
        for entry in harness.transport.all {
            let sent = entry.request.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
            #expect(!sent.contains(secret))
            #expect(!(entry.request.body.map { String(decoding: $0, as: UTF8.self) } ?? "").contains(secret))
        }
        #expect(!session.description.contains(secret) && !String(reflecting: session).contains(secret))
    }

    @Test("refresh keeps the binding; send(_:) and authorizedRequest(_:) reach the DPoP-protected resource")
    func refreshAndResource() async throws {
        let harness = try IdpyHarness()
        let first = try await harness.signIn()
        let key = try #require(first.dpopKey)
        harness.transport.reset()

        let refreshed = try await harness.client.currentSession(forceRefresh: true)
        #expect(refreshed.tokenType == "DPoP" && refreshed.accessToken != first.accessToken)
        #expect(idpyBoundThumbprint(refreshed.accessToken) == key.thumbprint)
        let refresh = try #require(harness.transport.to("/token").first)
        #expect(refresh.form["grant_type"] == "refresh_token" && refresh.response?.status == 200)
        #expect(refresh.request.header("DPoP") != nil)

        let response = try await harness.client.send(TransportRequest(method: "GET", url: harness.url("/resource")))
        #expect(response.status == 200)
        #expect(JSON(data: response.body)?["jkt"]?.string == key.thumbprint)
        let call = try #require(harness.transport.to("/resource").first)
        #expect(call.request.header("Authorization") == "DPoP \(refreshed.accessToken)")
        let proof = idpyProofClaims(call.request)
        #expect(proof["ath"] as? String == DPoPProof.accessTokenHash(refreshed.accessToken))
        #expect(proof["htm"] as? String == "GET" && proof["htu"] as? String == harness.url("/resource").absoluteString)

        // An app sending with its own HTTP stack: the authorized request works once, as sent.
        let authorized = try await harness.client.authorizedRequest(
            TransportRequest(method: "POST", url: harness.url("/resource")))
        let own = try await harness.raw(authorized)
        #expect(own.status == 200 && JSON(data: own.body)?["method"]?.string == "POST")
        #expect(harness.transport.to("/resource").count == 1, "authorizedRequest sends nothing itself")
    }

    @Test("idpyoidc's resource refuses a replayed proof, a wrong htu, another key and a Bearer downgrade")
    func refusedProofs() async throws {
        let harness = try IdpyHarness()
        let session = try await harness.signIn()
        let key = try #require(session.dpopKey)
        let token = session.accessToken

        let authorized = try await harness.client.authorizedRequest(
            TransportRequest(method: "GET", url: harness.url("/resource")))
        #expect(try await harness.raw(authorized).status == 200)
        let replayed = try await harness.raw(authorized)
        #expect(replayed.status == 401)
        #expect(replayed.header("WWW-Authenticate")?.contains(#"error="invalid_dpop_proof""#) == true)

        let elsewhere = try DPoPProof.make(
            key: key, method: "GET", url: harness.url("/elsewhere"), accessToken: token, nonce: nil, issuedAt: Date(),
            jti: UUID().uuidString)
        let wrongURL = try await harness.raw(harness.resourceRequest(token: token, proof: elsewhere))
        #expect(wrongURL.status == 401)
        #expect(JSON(data: wrongURL.body)?["error"]?.string == "invalid_dpop_proof")

        let stranger = try DPoPKey.generate()
        let strangerProof = try DPoPProof.make(
            key: stranger, method: "GET", url: harness.url("/resource"), accessToken: token, nonce: nil,
            issuedAt: Date(), jti: UUID().uuidString)
        #expect(try await harness.raw(harness.resourceRequest(token: token, proof: strangerProof)).status == 401)

        let fresh = try DPoPProof.make(
            key: key, method: "GET", url: harness.url("/resource"), accessToken: token, nonce: nil, issuedAt: Date(),
            jti: UUID().uuidString)
        #expect(
            try await harness.raw(harness.resourceRequest(token: token, proof: fresh, scheme: "Bearer")).status == 401)

        // The control: a proof made the same way for the right URL, with the session's key, is accepted.
        let right = try DPoPProof.make(
            key: key, method: "GET", url: harness.url("/resource"), accessToken: token, nonce: nil, issuedAt: Date(),
            jti: UUID().uuidString)
        #expect(try await harness.raw(harness.resourceRequest(token: token, proof: right)).status == 200)

        // The refresh request replayed as it was sent: its proof's jti is spent.
        _ = try await harness.client.currentSession(forceRefresh: true)
        let refresh = try #require(harness.transport.to("/token").last)
        #expect(refresh.form["grant_type"] == "refresh_token")
        let again = try await harness.raw(refresh.request)
        #expect(again.status == 400 && JSON(data: again.body)?["error"]?.string == "invalid_dpop_proof")
    }

    @Test("a nonce-requiring token endpoint and resource: each use_dpop_nonce is answered by one retry with it")
    func nonces() async throws {
        let harness = try IdpyHarness(clientID: IdpyProvider.nonceClient)
        let session = try await harness.signIn()
        #expect(session.tokenType == "DPoP")
        let tokens = harness.transport.to("/token")
        try #require(tokens.count == 2)
        #expect(tokens[0].response?.status == 400 && tokens[0].json["error"] as? String == "use_dpop_nonce")
        let nonce = try #require(tokens[0].response?.header("DPoP-Nonce"))
        #expect(idpyProofClaims(tokens[0].request)["nonce"] == nil)
        #expect(idpyProofClaims(tokens[1].request)["nonce"] as? String == nonce)
        #expect(tokens[1].response?.status == 200)
        #expect(tokens[0].form == tokens[1].form, "the same exchange, sent twice")

        // RFC 9449 §9: a resource server's nonce is its own, not the authorization server's, even on the same
        // origin (this server happens to draw both from one pool; the client does not assume it): the resource's
        // first proof carries no nonce, its 401 gives one, and one retry carries it.
        let known = try await harness.client.send(TransportRequest(method: "GET", url: harness.url("/resource/nonce")))
        #expect(known.status == 200)
        let resource = harness.transport.to("/resource/nonce")
        try #require(resource.count == 2)
        #expect(idpyProofClaims(resource[0].request)["nonce"] == nil)
        #expect(resource[0].response?.status == 401)
        let firstResourceNonce = try #require(resource[0].response?.header("DPoP-Nonce"))
        #expect(idpyProofClaims(resource[1].request)["nonce"] as? String == firstResourceNonce)
        // The token endpoint's nonce stays the token endpoint's: a refresh carries the newest one it gave.
        let newest = try #require(tokens[1].response?.header("DPoP-Nonce"))
        _ = try await harness.client.currentSession(forceRefresh: true)
        let refresh = try #require(harness.transport.to("/token").last)
        #expect(idpyProofClaims(refresh.request)["nonce"] as? String == newest)
        #expect(harness.transport.to("/token").count == 3, "the refresh needed no retry")

        // A client that has no nonce yet: the resource's 401 use_dpop_nonce, then one retry with its nonce.
        let fresh = try IdpyHarness()
        _ = try await fresh.signIn()
        #expect(fresh.transport.to("/token").count == 1, "the public client's token endpoint wants no nonce")
        let response = try await fresh.client.send(
            TransportRequest(method: "GET", url: fresh.url("/resource/nonce")))
        #expect(response.status == 200)
        let calls = fresh.transport.to("/resource/nonce")
        try #require(calls.count == 2)
        #expect(calls[0].response?.status == 401)
        #expect(calls[0].response?.header("WWW-Authenticate")?.contains("use_dpop_nonce") == true)
        let resourceNonce = try #require(calls[0].response?.header("DPoP-Nonce"))
        #expect(idpyProofClaims(calls[0].request)["nonce"] == nil)
        #expect(idpyProofClaims(calls[1].request)["nonce"] as? String == resourceNonce)
        #expect(
            idpyProofClaims(calls[0].request)["jti"] as? String != idpyProofClaims(calls[1].request)["jti"] as? String)
    }

    @Test("a push whose proof is of another key than its dpop_jkt is refused; a proof without dpop_jkt is taken")
    func pushedProofKey() async throws {
        let harness = try IdpyHarness()
        _ = try await harness.client.prepareAuthorization(redirectURI: harness.url("/callback"))
        let pushed = try #require(harness.transport.to("/par").first)
        #expect(pushed.response?.status == 201)
        let stranger = try DPoPKey.generate()
        func push(_ form: [String: String]) async throws -> TransportResponse {
            var body = URLComponents()
            body.queryItems = form.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
            let proof = try DPoPProof.make(
                key: stranger, method: "POST", url: harness.url("/par"), accessToken: nil, nonce: nil,
                issuedAt: Date(), jti: UUID().uuidString)
            return try await harness.raw(
                TransportRequest(
                    method: "POST", url: harness.url("/par"),
                    headers: [("Content-Type", "application/x-www-form-urlencoded"), ("DPoP", proof)],
                    body: Data((body.percentEncodedQuery ?? "").utf8)))
        }
        let mismatched = try await push(pushed.form)
        #expect(mismatched.status == 400 && JSON(data: mismatched.body)?["error"]?.string == "invalid_dpop_proof")
        var proofOnly = pushed.form
        proofOnly["dpop_jkt"] = nil
        #expect(try await push(proofOnly).status == 201)
    }

    @Test("a pushed request_uri that expired before the browser opened is pushed again; idpyoidc refuses the old one")
    func expiredPush() async throws {
        // The server expires the first request_uri before the runtime sees it (a test control, no clock); the
        // runtime keeps a 2-second margin, so the announced 2 s are already over and it pushes again, then opens
        // the fresh one.
        let harness = try IdpyHarness(clientID: IdpyProvider.shortPushClient, base: IdpyExpiringFirstPushTransport())
        let session = try await harness.signIn()
        #expect(session.tokenType == "DPoP")
        let pushes = harness.transport.to("/par")
        try #require(pushes.count == 2)
        #expect(pushes.allSatisfy { $0.json["expires_in"] as? Int == 2 })
        let old = try #require(pushes[0].json["request_uri"] as? String)
        let fresh = try #require(pushes[1].json["request_uri"] as? String)
        #expect(old != fresh)
        #expect(harness.opened.value.count == 1)
        #expect(harness.opened.value.first?.oidcQuery("request_uri") == fresh)
        #expect(pushes[0].form == pushes[1].form, "the same parameters, pushed again")

        // What the browser would have met with the old one.
        var stale = URLComponents(url: harness.url("/authorization"), resolvingAgainstBaseURL: false)!
        stale.queryItems = [
            URLQueryItem(name: "client_id", value: IdpyProvider.shortPushClient),
            URLQueryItem(name: "request_uri", value: old),
        ]
        let refused = try await harness.raw(TransportRequest(method: "GET", url: stale.url!))
        #expect(refused.status == 400 && JSON(data: refused.body)?["error"]?.string == "invalid_request_uri")
        #expect(JSON(data: refused.body)?["error_description"]?.string == "the request_uri has expired")
    }

    @Test("without usesDPoP, idpyoidc refuses the proofless code exchange: invalid_dpop_proof, nothing stored")
    func withoutDPoP() async throws {
        let harness = try IdpyHarness(usesDPoP: false)
        await OIDCTest.expectError(.invalidDPoPProof) { _ = try await harness.signIn() }
        let exchange = try #require(harness.transport.to("/token").first)
        #expect(exchange.request.header("DPoP") == nil)
        #expect(exchange.response?.status == 400 && exchange.json["error"] as? String == "invalid_dpop_proof")
        #expect(harness.transport.to("/par").first?.form["dpop_jkt"] == nil)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
        #expect(harness.transport.to("/userinfo").isEmpty)
    }
}
