import Foundation
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// The byte-level writing of a proof (base64url, the claims' JSON, `htu`), checked against the package's own
/// encoders and an independent verifier, and proofs made from many tasks at once with one key.
@Suite("DPoP: proof encoding", timeLimit(minutes: 2))
struct DPoPProofEncodingTests {
    @Test("base64url bytes are Base64URL.encode's for every length and remainder")
    func base64URL() {
        for length in 0...100 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) }
            var out: [UInt8] = [UInt8(ascii: "x")]
            DPoPEncoding.appendBase64URL(bytes, to: &out)
            #expect(String(decoding: out.dropFirst(), as: UTF8.self) == Base64URL.encode(bytes), "\(length)")
        }
    }

    @Test("claims with quotes, backslashes and control characters are escaped JSON; htu drops query and fragment")
    func escapedClaims() throws {
        let key = try DPoPKey.generate()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let nonce = "n\"o\\n\u{01}\nce-é"
        let jti = "j\"t\\i"
        let url = try #require(URL(string: "https://r.example/a/b%20c;p?q=1&r=?#f?g"))
        let proof = try DPoPProof.make(
            key: key, method: "PATCH", url: url, accessToken: nil, nonce: nonce, issuedAt: now, jti: jti)
        let verified = try DPoPProofChecker.check(
            proof, method: "PATCH", url: "https://r.example/a/b%20c;p", accessToken: nil, now: now
        ).get()
        #expect(verified.nonce == nonce && verified.jti == jti && verified.ath == nil)
        // The claims' members are sorted by name, as JSON.serialized writes them.
        let claims = try #require(Base64URL.decode(String(proof.split(separator: ".")[1])))
        #expect(
            String(decoding: claims, as: UTF8.self)
                == String(
                    decoding: JSON.object([
                        "htm": .string("PATCH"), "htu": .string("https://r.example/a/b%20c;p"),
                        "iat": .number(1_700_000_000), "jti": .string(jti), "nonce": .string(nonce),
                    ]).serialized, as: UTF8.self))
        let fragmentOnly = try #require(URL(string: "https://r.example/x#frag?not-a-query"))
        #expect(DPoPProof.targetURI(fragmentOnly) == "https://r.example/x")
        let plain = try #require(URL(string: "http://127.0.0.1:8080/token"))
        #expect(DPoPProof.targetURI(plain) == "http://127.0.0.1:8080/token")
    }

    @Test("proofs made at once from many tasks with one key each verify, with their own signature")
    func concurrentProofs() async throws {
        let key = try DPoPKey.generate()
        let url = try #require(URL(string: "https://resource.example/r"))
        let now = Date()
        let proofs = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<64 {
                group.addTask {
                    try DPoPProof.make(
                        key: key, method: "GET", url: url, accessToken: "at", nonce: nil, issuedAt: now,
                        jti: "jti-\(index)")
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(proofs.count == 64)
        var signatures = Set<Substring>()
        for proof in proofs {
            let verified = try DPoPProofChecker.check(
                proof, method: "GET", url: "https://resource.example/r", accessToken: "at", now: now
            ).get()
            #expect(verified.jkt == key.thumbprint)
            signatures.insert(proof.split(separator: ".")[2])
        }
        #expect(signatures.count == 64)
        // The same input twice gets two signatures (ECDSA's per-signature nonce): no signature is reused.
        let again = try [0, 1].map { _ in
            try DPoPProof.make(key: key, method: "GET", url: url, accessToken: nil, nonce: nil, issuedAt: now, jti: "j")
        }
        #expect(again[0] != again[1])
    }
}
