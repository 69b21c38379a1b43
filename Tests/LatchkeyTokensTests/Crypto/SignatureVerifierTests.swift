@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

@Suite("Signature verification")
struct SignatureVerifierTests {
    static let rsa = try! TestSigner(.rsa())
    static let otherRSA = try! TestSigner(.rsa())
    static let p256 = try! TestSigner(.p256)
    static let otherP256 = try! TestSigner(.p256)
    static let p384 = try! TestSigner(.p384)
    static let ed25519 = try! TestSigner(.ed25519)
    static let otherEd25519 = try! TestSigner(.ed25519)

    static func signers(for algorithm: SignatureAlgorithm) -> (TestSigner, TestSigner) {
        switch algorithm {
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: (rsa, otherRSA)
        case .es256: (p256, otherP256)
        case .es384: (p384, try! TestSigner(.p384))
        case .edDSA: (ed25519, otherEd25519)
        }
    }

    let message = Array("eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjMifQ".utf8)

    @Test("sign then verify", arguments: SignatureAlgorithm.allCases)
    func signVerify(_ algorithm: SignatureAlgorithm) throws {
        let (signer, _) = Self.signers(for: algorithm)
        let signature = try signer.sign(message, algorithm: algorithm)
        #expect(
            try SignatureVerifier.verify(
                algorithm: algorithm, key: signer.publicKey, message: message, signature: signature))
    }

    @Test("a tampered message fails", arguments: SignatureAlgorithm.allCases)
    func tamperedMessage(_ algorithm: SignatureAlgorithm) throws {
        let (signer, _) = Self.signers(for: algorithm)
        let signature = try signer.sign(message, algorithm: algorithm)
        var tampered = message
        tampered[5] ^= 0x01
        #expect(
            !(try SignatureVerifier.verify(
                algorithm: algorithm, key: signer.publicKey, message: tampered, signature: signature)))
    }

    @Test("a tampered signature fails", arguments: SignatureAlgorithm.allCases)
    func tamperedSignature(_ algorithm: SignatureAlgorithm) throws {
        let (signer, _) = Self.signers(for: algorithm)
        var signature = try signer.sign(message, algorithm: algorithm)
        signature[signature.count / 2] ^= 0x80
        #expect(
            !(try SignatureVerifier.verify(
                algorithm: algorithm, key: signer.publicKey, message: message, signature: signature)))
    }

    @Test("another key fails", arguments: SignatureAlgorithm.allCases)
    func wrongKey(_ algorithm: SignatureAlgorithm) throws {
        let (signer, other) = Self.signers(for: algorithm)
        let signature = try signer.sign(message, algorithm: algorithm)
        #expect(
            !(try SignatureVerifier.verify(
                algorithm: algorithm, key: other.publicKey, message: message, signature: signature)))
    }

    @Test("a signature of the wrong length fails without crashing", arguments: SignatureAlgorithm.allCases)
    func wrongLength(_ algorithm: SignatureAlgorithm) throws {
        let (signer, _) = Self.signers(for: algorithm)
        let signature = try signer.sign(message, algorithm: algorithm)
        for candidate in [
            [], Array(signature.dropLast()), signature + [0], [UInt8](repeating: 0, count: signature.count),
        ] {
            #expect(
                !(try SignatureVerifier.verify(
                    algorithm: algorithm, key: signer.publicKey, message: message, signature: candidate)))
        }
    }

    @Test("PKCS #1 v1.5 and PSS signatures are not interchangeable")
    func paddingMatters() throws {
        let signature = try Self.rsa.sign(message, algorithm: .rs256)
        #expect(
            !(try SignatureVerifier.verify(
                algorithm: .ps256, key: Self.rsa.publicKey, message: message, signature: signature)))
        let pss = try Self.rsa.sign(message, algorithm: .ps256)
        #expect(
            !(try SignatureVerifier.verify(algorithm: .rs256, key: Self.rsa.publicKey, message: message, signature: pss))
        )
        #expect(
            !(try SignatureVerifier.verify(algorithm: .ps384, key: Self.rsa.publicKey, message: message, signature: pss))
        )
    }

    @Test("RFC 8032 Ed25519 test vector 1")
    func rfc8032() throws {
        let key = PublicKeyMaterial.ed25519(
            raw: TestVectorHex.bytes("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
        let signature = TestVectorHex.bytes(
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        )
        #expect(try SignatureVerifier.verify(algorithm: .edDSA, key: key, message: [], signature: signature))
        #expect(!(try SignatureVerifier.verify(algorithm: .edDSA, key: key, message: [0], signature: signature)))
    }

    @Test("RSA keys under 2048 bits are rejected")
    func smallRSA() throws {
        let small = try TestSigner(.rsa(bits: 1024))
        let signature = try small.sign(message, algorithm: .rs256)
        #expect(throws: AuthError.self) {
            try SignatureVerifier.verify(
                algorithm: .rs256, key: small.publicKey, message: message, signature: signature)
        }
        do {
            _ = try SignatureVerifier.verify(
                algorithm: .rs256, key: small.publicKey, message: message, signature: signature)
        } catch {
            #expect(error.code == .invalidToken)
        }
    }

    @Test("unusable keys throw invalid_token")
    func unusableKeys() throws {
        guard case .ec(_, let x, let y) = Self.p256.publicKey, case .rsa(let n, _) = Self.rsa.publicKey else {
            Issue.record("unexpected key types")
            return
        }
        var offCurveY = y
        offCurveY[31] ^= 0x01
        let cases: [(SignatureAlgorithm, PublicKeyMaterial)] = [
            (.es256, Self.rsa.publicKey),
            (.rs256, Self.p256.publicKey),
            (.edDSA, Self.p256.publicKey),
            (.es384, Self.p256.publicKey),
            (.es256, .ec(curve: "P-256", x: x, y: offCurveY)),
            (.es256, .ec(curve: "P-256", x: Array(x.dropFirst()), y: y)),
            (.es256, .ec(curve: "secp256k1", x: x, y: y)),
            (.edDSA, .ed25519(raw: [UInt8](repeating: 1, count: 31))),
            (.rs256, .rsa(modulus: n, exponent: [])),
            (.rs256, .rsa(modulus: n, exponent: [0x01, 0x00])),
            (.rs256, .rsa(modulus: [], exponent: [0x01, 0x00, 0x01])),
        ]
        for (algorithm, key) in cases {
            let error = #expect(throws: AuthError.self, "\(algorithm) with \(key)") {
                try SignatureVerifier.verify(
                    algorithm: algorithm, key: key, message: message, signature: [UInt8](repeating: 1, count: 64))
            }
            #expect(error?.code == .invalidToken)
        }
    }

    @Test("exported JWK parameters round-trip")
    func jwk() throws {
        let jwk = Self.p256.publicJWK(keyID: "k1", algorithm: .es256)
        #expect(jwk["kty"] == "EC")
        #expect(jwk["crv"] == "P-256")
        #expect(jwk["kid"] == "k1")
        #expect(jwk["alg"] == "ES256")
        let x = try #require(jwk["x"].flatMap(Base64URL.decode))
        let y = try #require(jwk["y"].flatMap(Base64URL.decode))
        let signature = try Self.p256.sign(message, algorithm: .es256)
        #expect(
            try SignatureVerifier.verify(
                algorithm: .es256, key: .ec(curve: "P-256", x: x, y: y), message: message, signature: signature))

        let rsaJWK = Self.rsa.publicJWK()
        #expect(rsaJWK["e"] == "AQAB")
        #expect(rsaJWK["n"].flatMap(Base64URL.decode)?.count == 256)
        #expect(Self.ed25519.publicJWK()["crv"] == "Ed25519")
    }
}
