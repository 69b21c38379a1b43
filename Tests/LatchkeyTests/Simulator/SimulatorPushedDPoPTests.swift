import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

/// DPoP at the pushed authorization endpoint (RFC 9449 §10.1), on the simulator with `OktaClient` (its descriptor
/// declares `"dpop": "optional"` and `"pushedAuthorization"`): a DPoP client's push carries a proof of the key its
/// `dpop_jkt` names and meets the endpoint's nonce challenge; the simulator checks the proof, its key against
/// `dpop_jkt`, and binds the code to the proof's key when the push has no `dpop_jkt`.
@Suite("ProviderSimulator: DPoP proofs at the pushed authorization endpoint (RFC 9449 §10.1)", timeLimit(minutes: 2))
struct SimulatorPushedDPoPTests {
    // MARK: - The client

    @Test("A DPoP sign-in's push carries a proof of the dpop_jkt key: htm POST, htu the endpoint, no ath")
    func pushCarriesProof() async throws {
        try await withSimulator(OktaClient.provider) { simulator in
            let okta = try oktaSenderConstrainedClient(simulator, pushes: true)
            let session = try await okta.client.signInWithBrowser(using: simulator.browser)
            #expect(session.tokenType.caseInsensitiveCompare("DPoP") == .orderedSame)

            let pushes = simulator.requests(to: .pushedAuthorization)
            #expect(pushes.count == 1)
            let push = try #require(pushes.first)
            let jkt = try #require(push.formBody["dpop_jkt"])
            let proof = try #require(push.header("DPoP"))
            #expect(ProviderSimulator.dpopKeyThumbprint(ofProof: proof) == jkt)
            let claims = try dpopClaims(proof)
            #expect(claims["htm"] as? String == "POST")
            #expect(claims["htu"] as? String == simulator.url(push.path).absoluteString)
            #expect(claims["ath"] == nil)
            #expect(claims["nonce"] == nil)

            // The code exchange proves the same key, and the session's tokens are bound to it.
            let exchange = try #require(simulator.tokenRequests.first)
            #expect(ProviderSimulator.dpopKeyThumbprint(ofProof: exchange.header("DPoP") ?? "") == jkt)
            #expect(simulator.dpopKeyThumbprint(boundTo: session.accessToken) == jkt)
            #expect(simulator.tokenRequests.count == 1)
        }
    }

    @Test("A demanded nonce: the push is refused once and sent again with it; the code exchange reuses it unasked")
    func pushMeetsNonceChallenge() async throws {
        try await withSimulator(OktaClient.provider) { simulator in
            simulator.requireDPoPNonce()
            let okta = try oktaSenderConstrainedClient(simulator, pushes: true)
            let session = try await okta.client.signInWithBrowser(using: simulator.browser)
            #expect(session.tokenType.caseInsensitiveCompare("DPoP") == .orderedSame)

            let pushes = simulator.requests(to: .pushedAuthorization)
            #expect(pushes.count == 2)
            let first = try dpopClaims(pushes.first?.header("DPoP"))
            let retry = try dpopClaims(pushes.last?.header("DPoP"))
            #expect(first["nonce"] == nil)
            let nonce = try #require(retry["nonce"] as? String)
            #expect(first["jti"] as? String != retry["jti"] as? String)
            let jkt = try #require(pushes.last?.formBody["dpop_jkt"])
            #expect(pushes.allSatisfy { ProviderSimulator.dpopKeyThumbprint(ofProof: $0.header("DPoP") ?? "") == jkt })
            #expect(simulator.requests(to: .authorize).count == 1)

            // One code exchange, already carrying the nonce the push was given: no further retry.
            let tokenRequests = simulator.tokenRequests
            #expect(tokenRequests.count == 1)
            #expect(try dpopClaims(tokenRequests.first?.header("DPoP"))["nonce"] as? String == nonce)
            #expect(simulator.dpopKeyThumbprint(boundTo: session.accessToken) == jkt)
        }
    }

    @Test("A request_uri that expired before the browser opened is pushed again with a proof of the same key")
    func repushProvesSameKey() async throws {
        try await withSimulator(OktaClient.provider) { simulator in
            // expires_in 0: the client pushes again at once, and the simulator refuses the opened one.
            simulator.setPushedRequestLifetime(0)
            let okta = try oktaSenderConstrainedClient(simulator, pushes: true)
            let error = await #expect(throws: AuthError.self) {
                try await okta.client.signInWithBrowser(using: simulator.browser)
            }
            #expect(error?.providerCode == "invalid_request_uri")
            let pushes = simulator.requests(to: .pushedAuthorization)
            #expect(pushes.count == 2)
            let jkt = try #require(pushes.first?.formBody["dpop_jkt"])
            #expect(pushes.last?.formBody["dpop_jkt"] == jkt)
            #expect(pushes.allSatisfy { ProviderSimulator.dpopKeyThumbprint(ofProof: $0.header("DPoP") ?? "") == jkt })
            let jtis = try pushes.map { try dpopClaims($0.header("DPoP"))["jti"] as? String }
            #expect(Set(jtis).count == 2)
            #expect(simulator.tokenRequests.isEmpty)
        }
    }

    @Test("Without DPoP a push carries neither a proof nor dpop_jkt")
    func pushWithoutDPoP() async throws {
        try await withSimulator(OktaClient.provider) { simulator in
            let okta = try oktaSenderConstrainedClient(simulator, usesDPoP: false, pushes: true)
            let session = try await okta.client.signInWithBrowser(using: simulator.browser)
            #expect(session.tokenType == "Bearer")
            let pushes = simulator.requests(to: .pushedAuthorization)
            #expect(pushes.count == 1)
            #expect(pushes.first?.header("DPoP") == nil)
            #expect(pushes.first?.formBody["dpop_jkt"] == nil)
            #expect(simulator.tokenRequests.count == 1)
            #expect(simulator.tokenRequests.first?.header("DPoP") == nil)
        }
    }

    // MARK: - The simulator

    /// A pushed authorization request made by hand, with a `DPoP` header when given.
    private static func push(
        _ simulator: ProviderSimulator, proof: String?, dpopJKT: String? = nil
    ) async throws -> TransportResponse {
        var form = [
            ("client_id", "demo-client"), ("response_type", "code"), ("state", "hand-made"),
            ("redirect_uri", ConformanceHarness.redirectURI(for: OktaClient.provider).absoluteString),
        ]
        if let dpopJKT { form.append(("dpop_jkt", dpopJKT)) }
        return try await post(form, proof: proof, to: simulator.url("/par"), simulator)
    }

    private static func post(
        _ form: [(String, String)], proof: String?, to url: URL, _ simulator: ProviderSimulator
    ) async throws -> TransportResponse {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1)" }
        var headers: [(name: String, value: String)] = [("Content-Type", "application/x-www-form-urlencoded")]
        if let proof { headers.append(("DPoP", proof)) }
        return try await simulator.transport.send(
            TransportRequest(
                method: "POST", url: url, headers: headers, body: Data(body.joined(separator: "&").utf8)))
    }

    private static func json(_ response: TransportResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
    }

    private typealias Proof = SimulatorDPoPProofCheckTests.Proof

    @Test("A push whose proof is bad, lacks the nonce, or is of another key than its dpop_jkt is refused")
    func refusedPushes() async throws {
        let key = try TestSigner(.p256)
        let otherKey = try TestSigner(.p256)
        try await withSimulator(OktaClient.provider) { simulator in
            let htu = simulator.url("/par").absoluteString
            let otherJKT = try #require(
                ProviderSimulator.dpopKeyThumbprint(
                    ofProof: try SimulatorDPoPProofCheckTests.make(Proof(htu: htu), key: otherKey)))

            let mismatched = try await Self.push(
                simulator, proof: try SimulatorDPoPProofCheckTests.make(Proof(htu: htu), key: key), dpopJKT: otherJKT)
            #expect(mismatched.status == 400)
            #expect(Self.json(mismatched)["error"] as? String == "invalid_dpop_proof")

            let misdirected = try await Self.push(
                simulator,
                proof: try SimulatorDPoPProofCheckTests.make(
                    Proof(htu: simulator.url("/token").absoluteString), key: key))
            #expect(misdirected.status == 400)
            #expect(Self.json(misdirected)["error"] as? String == "invalid_dpop_proof")

            simulator.requireDPoPNonce()
            let withoutNonce = try await Self.push(
                simulator, proof: try SimulatorDPoPProofCheckTests.make(Proof(htu: htu), key: key))
            #expect(withoutNonce.status == 400)
            #expect(Self.json(withoutNonce)["error"] as? String == "use_dpop_nonce")
            let nonce = try #require(withoutNonce.header("DPoP-Nonce"))

            // The same key and dpop_jkt, with the nonce: accepted.
            let matching = try await Self.push(
                simulator, proof: try SimulatorDPoPProofCheckTests.make(Proof(htu: htu, nonce: nonce), key: otherKey),
                dpopJKT: otherJKT)
            #expect(matching.status == 201)
            #expect(simulator.requests(to: .pushedAuthorization).count == 4)
        }
    }

    @Test("A push with a proof and no dpop_jkt binds the code to the proof's key: another key's exchange is refused")
    func proofOnlyPushBindsCode() async throws {
        let key = try TestSigner(.p256)
        let otherKey = try TestSigner(.p256)
        try await withSimulator(OktaClient.provider) { simulator in
            let htu = simulator.url("/par").absoluteString
            let proof = try SimulatorDPoPProofCheckTests.make(Proof(htu: htu), key: key)
            let jkt = try #require(ProviderSimulator.dpopKeyThumbprint(ofProof: proof))
            let pushed = try await Self.push(simulator, proof: proof)
            #expect(pushed.status == 201)
            let requestURI = try #require(Self.json(pushed)["request_uri"] as? String)

            let redirect = ConformanceHarness.redirectURI(for: OktaClient.provider)
            let authorize = simulator.url("/authorize").addingQuery("client_id", "demo-client")
                .addingQuery("request_uri", requestURI)
            let callback = try await simulator.browser.follow(authorize, until: redirect)
            let items = URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let code = try #require(items.first { $0.name == "code" }?.value)

            let token = simulator.url("/token")
            let form = [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect.absoluteString),
                ("client_id", "demo-client"),
            ]
            let otherProof = try SimulatorDPoPProofCheckTests.make(
                Proof(htu: token.absoluteString), key: otherKey)
            let refused = try await Self.post(form, proof: otherProof, to: token, simulator)
            #expect(refused.status == 400)
            #expect(Self.json(refused)["error"] as? String == "invalid_dpop_proof")
            let withoutProof = try await Self.post(form, proof: nil, to: token, simulator)
            #expect(withoutProof.status == 400)
            #expect(Self.json(withoutProof)["error"] as? String == "invalid_dpop_proof")

            // The proof's own key redeems it, and the tokens are bound to that key.
            let ownProof = try SimulatorDPoPProofCheckTests.make(Proof(htu: token.absoluteString), key: key)
            let accepted = try await Self.post(form, proof: ownProof, to: token, simulator)
            #expect(accepted.status == 200)
            let accessToken = try #require(Self.json(accepted)["access_token"] as? String)
            #expect(simulator.dpopKeyThumbprint(boundTo: accessToken) == jkt)
        }
    }
}
