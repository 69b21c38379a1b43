import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

@Suite("JWKS decoding")
struct JWTKeySetTests {
    @Test("RSA, EC P-256, EC P-384 and OKP Ed25519 keys decode to the signers' public keys")
    func decodesEveryKeyType() throws {
        let set = try JSONWebKeySet(
            data: JWTFixtures.jwks([
                JWTFixtures.rsa.publicJWK(keyID: "r", algorithm: .ps256), JWTFixtures.p256.publicJWK(keyID: "e2"),
                JWTFixtures.p384.publicJWK(keyID: "e3"), JWTFixtures.ed25519.publicJWK(),
            ]))
        #expect(set.skippedKeyCount == 0)
        #expect(
            set.keys.map(\.material) == [
                JWTFixtures.rsa.publicKey, JWTFixtures.p256.publicKey, JWTFixtures.p384.publicKey,
                JWTFixtures.ed25519.publicKey,
            ])
        #expect(set.keys.map(\.keyID) == ["r", "e2", "e3", nil])
        #expect(set.keys.map(\.keyType) == ["RSA", "EC", "EC", "OKP"])
        #expect(set.keys[0].algorithm == .ps256)
        #expect(set.keys[0].canVerify(.ps256) && !set.keys[0].canVerify(.rs256))
        #expect(set.keys[1].canVerify(.es256) && !set.keys[1].canVerify(.es384))
        #expect(set.keys[2].canVerify(.es384) && !set.keys[2].canVerify(.es256))
        #expect(set.keys[3].canVerify(.edDSA) && !set.keys[3].canVerify(.rs256))
        #expect(set.keys(withID: "e3").count == 1)
        #expect(set.containsKey(withID: "r") && !set.containsKey(withID: "x"))
    }

    @Test("unusable keys are skipped, not fatal")
    func skipsUnusableKeys() throws {
        var rsa = JWTFixtures.rsa.publicJWK(keyID: "good") as [String: Any]
        func variant(_ changes: [String: Any?]) -> [String: Any] {
            var key = rsa
            for (name, value) in changes { key[name] = value }
            return key
        }
        let p256 = JWTFixtures.p256.publicJWK(keyID: "ec")
        let skipped: [Any] = [
            variant(["use": "enc"]),  // encryption key
            variant(["use": 1]),
            variant(["alg": "RSA-OAEP"]),  // an encryption algorithm
            variant(["alg": "HS256"]),
            variant(["alg": "ES256"]),  // alg does not fit the key type
            variant(["key_ops": ["encrypt"]]),
            variant(["kid": 7]),
            variant(["n": nil]),
            variant(["e": "not base64!"]),
            variant(["kty": nil]),
            ["kty": "oct", "k": "c2VjcmV0", "kid": "hmac"],  // symmetric key
            p256.merging(["crv": "P-521"]) { _, new in new },
            p256.merging(["x": Base64URL.encode([UInt8](repeating: 1, count: 31))]) { _, new in new },
            ["kty": "OKP", "crv": "X25519", "x": Base64URL.encode([UInt8](repeating: 9, count: 32))],
            ["kty": "OKP", "crv": "Ed448", "x": Base64URL.encode([UInt8](repeating: 9, count: 57))],
            "not an object", 42,
        ]
        rsa["key_ops"] = ["verify"]
        let data = try JSONSerialization.data(withJSONObject: ["keys": skipped + [rsa, p256]])
        let set = try JSONWebKeySet(data: data)
        #expect(set.keys.map(\.keyID) == ["good", "ec"])
        #expect(set.skippedKeyCount == skipped.count)
    }

    @Test("a JWKS with no usable key is an empty set")
    func emptySet() throws {
        let set = try JSONWebKeySet(data: Data(#"{"keys":[{"kty":"oct","k":"AA"}]}"#.utf8))
        #expect(set.keys.isEmpty)
        #expect(set.skippedKeyCount == 1)
    }

    @Test(
        "a document that is not a JSON object with a keys array is refused",
        arguments: [
            ("", "not a JSON object"), ("[]", "not a JSON object"), ("<html>", "not a JSON object"),
            (#"{"keys":{}}"#, "no keys array"), (#"{"Keys":[]}"#, "no keys array"),
        ])
    func malformedDocument(_ text: String, _ reason: String) async {
        await expectJWTError(.invalidResponse, reason) { _ = try JSONWebKeySet(data: Data(text.utf8)) }
    }

    @Test("a document over 1 MiB is refused")
    func tooLarge() async {
        let data = Data(#"{"keys":[],"pad":""#.utf8) + Data(repeating: 0x41, count: 1 << 20) + Data(#""}"#.utf8)
        await expectJWTError(.invalidResponse, "at most 1048576") { _ = try JSONWebKeySet(data: data) }
    }
}
