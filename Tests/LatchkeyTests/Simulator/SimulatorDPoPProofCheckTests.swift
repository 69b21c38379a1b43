import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

/// Proofs made by hand (with a ``TestSigner`` P-256 key) and sent to the simulator's token endpoint with an unknown
/// refresh token: an accepted proof gets `invalid_grant` (the grant is checked after the proof), a refused one
/// `invalid_dpop_proof`.
@Suite("ProviderSimulator: DPoP proof checks (RFC 9449 §4.3)", timeLimit(minutes: 2))
struct SimulatorDPoPProofCheckTests {
    struct Proof {
        var typ = "dpop+jwt"
        var alg = "ES256"
        var extraJWK: [String: String] = [:]
        var htm = "POST"
        var htu: String
        var iatOffset: Double = 0
        var jti = UUID().uuidString
        var nonce: String?
    }

    static func make(_ proof: Proof, key: TestSigner, signer: TestSigner? = nil) throws -> String {
        var jwk = key.publicJWK()
        jwk["use"] = nil
        for (name, value) in proof.extraJWK { jwk[name] = value }
        let header: [String: Any] = ["typ": proof.typ, "alg": proof.alg, "jwk": jwk]
        var claims: [String: Any] = [
            "jti": proof.jti, "htm": proof.htm, "htu": proof.htu,
            "iat": Int(Date().timeIntervalSince1970 + proof.iatOffset),
        ]
        if let nonce = proof.nonce { claims["nonce"] = nonce }
        let input =
            Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))) + "."
            + Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])))
        let signature = try (signer ?? key).sign(Array(input.utf8), algorithm: .es256)
        return input + "." + Base64URL.encode(signature)
    }

    /// Sends a refresh request with an unknown token and this proof; returns the status, error and headers.
    static func send(_ proof: String, to simulator: ProviderSimulator) async throws -> TransportResponse {
        try await simulator.transport.send(
            TransportRequest(
                method: "POST", url: simulator.url("/token"),
                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("DPoP", proof)],
                body: Data("grant_type=refresh_token&refresh_token=unknown&client_id=demo-client".utf8)))
    }

    static func errorCode(_ response: TransportResponse) -> String? {
        ((try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any])?["error"] as? String
    }

    @Test("A well-formed proof is accepted once; a malformed, misdirected, stale or replayed one is refused")
    func proofChecks() async throws {
        let key = try TestSigner(.p256)
        let otherKey = try TestSigner(.p256)
        try await withSimulator(OktaClient.provider) { simulator in
            let htu = simulator.url("/token").absoluteString
            let valid = try Self.make(Proof(htu: htu), key: key)
            let accepted = try await Self.send(valid, to: simulator)
            #expect(accepted.status == 400)
            #expect(Self.errorCode(accepted) == "invalid_grant")

            let refused: [(String, String)] = [
                ("replayed", valid),
                ("typ", try Self.make(Proof(typ: "JWT", htu: htu), key: key)),
                ("alg", try Self.make(Proof(alg: "RS256", htu: htu), key: key)),
                ("private key", try Self.make(Proof(extraJWK: ["d": "c2VjcmV0"], htu: htu), key: key)),
                ("signature", try Self.make(Proof(htu: htu), key: key, signer: otherKey)),
                ("htm", try Self.make(Proof(htm: "GET", htu: htu), key: key)),
                ("htu", try Self.make(Proof(htu: simulator.url("/userinfo").absoluteString), key: key)),
                ("iat", try Self.make(Proof(htu: htu, iatOffset: -3600), key: key)),
                ("not a JWS", "not.a-proof"),
            ]
            for (name, proof) in refused {
                let response = try await Self.send(proof, to: simulator)
                #expect(response.status == 400, "\(name)")
                #expect(Self.errorCode(response) == "invalid_dpop_proof", "\(name)")
            }
            // A query in htu is ignored (RFC 9449 §4.3).
            let withQuery = try Self.make(Proof(htu: htu + "?ignored=1"), key: key)
            #expect(Self.errorCode(try await Self.send(withQuery, to: simulator)) == "invalid_grant")
        }
    }

    @Test("A demanded nonce: a proof without it gets use_dpop_nonce and the nonce; one with it is accepted")
    func nonceDemanded() async throws {
        let key = try TestSigner(.p256)
        try await withSimulator(OktaClient.provider) { simulator in
            simulator.requireDPoPNonce()
            let htu = simulator.url("/token").absoluteString
            let challenged = try await Self.send(try Self.make(Proof(htu: htu), key: key), to: simulator)
            #expect(challenged.status == 400)
            #expect(Self.errorCode(challenged) == "use_dpop_nonce")
            let nonce = try #require(challenged.header("DPoP-Nonce"))
            let answered = try await Self.send(try Self.make(Proof(htu: htu, nonce: nonce), key: key), to: simulator)
            #expect(Self.errorCode(answered) == "invalid_grant")
            let wrong = try await Self.send(try Self.make(Proof(htu: htu, nonce: "stale"), key: key), to: simulator)
            #expect(Self.errorCode(wrong) == "use_dpop_nonce")
        }
    }
}
