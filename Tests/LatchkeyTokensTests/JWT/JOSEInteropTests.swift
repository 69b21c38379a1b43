import Foundation
import LatchkeyTokens
import Testing

/// Tokens Latchkey did not sign: an independent library's (``JOSEInteropVectors``, written by
/// `scripts/jose-interop-vectors.py` with jwcrypto) and RFC 8037's Ed25519 example. Latchkey's own test signer
/// and its verifier share the same OpenSSL calls, so only tokens from elsewhere show that both read JOSE the way
/// the rest of the world writes it (raw `r||s` ECDSA signatures, PSS salt lengths, Ed25519 keys as `x`).
@Suite("JOSE interoperability: tokens signed elsewhere")
struct JOSEInteropTests {
    static let algorithms = JOSEInteropVectors.all.map(\.algorithm)

    private func vector(_ algorithm: String) throws -> JOSEInteropVectors.Vector {
        try #require(JOSEInteropVectors.all.first { $0.algorithm == algorithm })
    }

    private func keys(_ vector: JOSEInteropVectors.Vector) throws -> JSONWebKeySet {
        try JSONWebKeySet(data: Data(#"{"keys":[\#(vector.publicJWK)]}"#.utf8))
    }

    @Test("an independent library's token verifies, and the key its kid names is the one used", arguments: algorithms)
    func verifies(_ algorithm: String) throws {
        let vector = try vector(algorithm)
        let token = try JWSToken(compact: vector.token)
        let key = try token.verifySignature(keys: keys(vector), allowedAlgorithms: Set(SignatureAlgorithm.allCases))
        #expect(key.keyID == "interop-" + algorithm.lowercased())
        #expect(token.payload["sub"] == .string("interop-user"))
    }

    @Test("the same token with one signature bit flipped is refused", arguments: algorithms)
    func tamperedSignatureRefused(_ algorithm: String) throws {
        let vector = try vector(algorithm)
        var parts = vector.token.split(separator: ".").map(String.init)
        var signature = try #require(Base64URL.decode(parts[2]))
        signature[signature.count / 2] ^= 0x01
        parts[2] = Base64URL.encode(signature)
        let token = try JWSToken(compact: parts.joined(separator: "."))
        let error = #expect(throws: AuthError.self) {
            try token.verifySignature(keys: keys(vector), allowedAlgorithms: Set(SignatureAlgorithm.allCases))
        }
        #expect(error?.code == .invalidToken)
    }

    @Test("an ECDSA signature in DER form (not JOSE's r||s) is refused", arguments: ["ES256", "ES384"])
    func derSignatureRefused(_ algorithm: String) throws {
        let vector = try vector(algorithm)
        let token = try JWSToken(compact: try #require(vector.derSignatureToken))
        #expect(throws: AuthError.self) {
            try token.verifySignature(keys: keys(vector), allowedAlgorithms: Set(SignatureAlgorithm.allCases))
        }
    }

    @Test("RFC 8037 A.4: the Ed25519 example signature verifies with the example key, and not over other bytes")
    func rfc8037Ed25519() throws {
        let keySet = try JSONWebKeySet(
            data: Data(
                #"{"keys":[{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}"#.utf8))
        let key = try #require(keySet.keys.first)
        let signingInput = Array("eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc".utf8)
        let signature = try #require(
            Base64URL.decode(
                "hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"))
        #expect(
            try SignatureVerifier.verify(
                algorithm: .edDSA, key: key.material, message: signingInput, signature: signature))
        #expect(
            try !SignatureVerifier.verify(
                algorithm: .edDSA, key: key.material, message: signingInput + [0x2E], signature: signature))
    }
}
