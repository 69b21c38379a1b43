import Foundation
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// DPoP keys and proofs off the wire: RFC 9449's own example values, the proof's shape checked by an independent
/// verifier, and a private key that no description, dump or log shows.
@Suite("DPoP: keys and proofs")
struct DPoPProofTests {
    @Test("the JWK thumbprint of RFC 9449's example key is the RFC's jkt (RFC 7638 §3)")
    func thumbprintVector() {
        #expect(
            DPoPKey.thumbprint(
                x: "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs", y: "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA")
                == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
    }

    @Test("ath of RFC 9449 §7.1's example access token is the RFC's value")
    func accessTokenHashVector() {
        #expect(
            DPoPProof.accessTokenHash("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU")
                == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
    }

    @Test(
        "a proof verifies with its embedded public jwk and carries typ, alg, htm, htu (no query), iat, jti, ath, nonce")
    func proofShape() throws {
        let key = try DPoPKey.generate()
        let url = try #require(URL(string: "https://resource.example.org/protectedresource?x=1#frag"))
        let now = Date(timeIntervalSince1970: 1_700_000_000.7)
        let proof = try DPoPProof.make(
            key: key, method: "GET", url: url, accessToken: "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU",
            nonce: "eyJ7S_zG.eyJH0-Z.HX4w-7v", issuedAt: now, jti: "e1j3V_bKic8-LAEB")
        let checked = DPoPProofChecker.check(
            proof, method: "GET", url: "https://resource.example.org/protectedresource",
            accessToken: "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU", now: now)
        let verified = try checked.get()
        #expect(verified.jkt == key.thumbprint)
        #expect(verified.iat == 1_700_000_000)
        #expect(verified.jti == "e1j3V_bKic8-LAEB")
        #expect(verified.nonce == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        #expect(verified.ath == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")

        // One changed byte of the signed part, and the signature no longer verifies.
        var parts = proof.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"htm":"POST"}"#.utf8))
        let tampered = DPoPProofChecker.check(
            parts.joined(separator: "."), method: "POST", url: "https://resource.example.org/protectedresource",
            accessToken: nil, now: now)
        #expect(throws: DPoPProofChecker.Refusal("signature")) { try tampered.get() }
    }

    @Test("a key round-trips through its stored form; a foreign stored form is no key")
    func storedForm() throws {
        let key = try DPoPKey.generate()
        let restored = try #require(DPoPKey(storedForm: key.storedForm))
        #expect(restored == key && restored.thumbprint == key.thumbprint)
        #expect(DPoPKey(storedForm: "AAAA") == nil)
        #expect(DPoPKey(storedForm: "not base64url!") == nil)
        #expect(try DPoPKey.generate().thumbprint != key.thumbprint)
    }

    @Test("the private key is in no description, debug description, dump or log; Codable leaves it out")
    func keyNeverShown() async throws {
        let harness = try DPoPHarness()
        let client = try harness.client()
        let session = try await client.signIn(username: "ada", password: "pw")
        _ = try await client.currentSession(forceRefresh: true)
        _ = try await client.send(harness.resource())
        let key = try #require(await client.cachedSession?.dpopKey)
        let secret = key.storedForm
        var dumped = ""
        dump(session, to: &dumped)
        var dumpedKey = ""
        dump(key, to: &dumpedKey)
        let shown = [
            session.description, session.debugDescription, String(reflecting: session), dumped, dumpedKey,
            key.description, String(reflecting: key), "\(client.state)", harness.logs.withLock { $0.joined() },
            String(decoding: try JSONEncoder().encode(session), as: UTF8.self),
        ]
        for text in shown {
            #expect(text.range(of: secret) == nil)
        }
        #expect(dumpedKey.range(of: key.thumbprint) != nil)
        // The session record keeps it, for a relaunch (see DPoPWireTests.keySurvivesRestore).
        let record = try #require(try await harness.store.load(key: client.storeKey))
        #expect(String(decoding: record, as: UTF8.self).range(of: secret) != nil)
    }
}
