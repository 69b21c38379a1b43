import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

@Suite("ID token signatures and key selection")
struct JWTIDTokenSignatureTests {
    let keys = JWTFixtures.allKeys

    @Test("a token signed with each algorithm verifies", arguments: SignatureAlgorithm.allCases)
    func eachAlgorithm(_ algorithm: SignatureAlgorithm) throws {
        let validator = JWTFixtures.validator(allowedAlgorithms: Set(SignatureAlgorithm.allCases))
        let claims = try validator.validate(
            JWTFixtures.token(algorithm: algorithm), keys: keys, nonce: JWTFixtures.nonce)
        #expect(claims.sub == "user-1")
    }

    @Test("each algorithm's signature fails with another key of the same type", arguments: SignatureAlgorithm.allCases)
    func wrongKey(_ algorithm: SignatureAlgorithm) async throws {
        let validator = JWTFixtures.validator(allowedAlgorithms: Set(SignatureAlgorithm.allCases))
        let other: TestSigner =
            switch algorithm {
            case .es256: try TestSigner(.p256)
            case .es384: try TestSigner(.p384)
            case .edDSA: try TestSigner(.ed25519)
            default: JWTFixtures.otherRSA
            }
        let token = JWTFixtures.token(algorithm: algorithm, signer: other)
        await expectJWTError(.invalidIDToken, "signature does not verify", token: token) {
            _ = try validator.validate(token, keys: keys, nonce: nil)
        }
    }

    @Test("the default algorithms are RS256, PS256, ES256 and EdDSA", arguments: SignatureAlgorithm.allCases)
    func defaultAlgorithms(_ algorithm: SignatureAlgorithm) async throws {
        let token = JWTFixtures.token(algorithm: algorithm)
        let validator = JWTFixtures.validator()
        if [.rs256, .ps256, .es256, .edDSA].contains(algorithm) {
            _ = try validator.validate(token, keys: keys, nonce: nil)
        } else {
            await expectJWTError(.invalidIDToken, "alg \(algorithm.rawValue) is not allowed", token: token) {
                _ = try validator.validate(token, keys: keys, nonce: nil)
            }
        }
    }

    @Test("alg none is refused, whatever the allowed algorithms", arguments: ["none", "None", "NONE"])
    func algNone(_ name: String) async {
        let header = JWTFixtures.part(["alg": name, "kid": "rsa-1"])
        let payload = JWTFixtures.part(JWTFixtures.claims())
        let validator = JWTFixtures.validator(allowedAlgorithms: Set(SignatureAlgorithm.allCases))
        for token in [header + "." + payload + ".", header + "." + payload + ".c2lnbmF0dXJl"] {
            await expectJWTError(.invalidIDToken, "“none” (an unsigned token) is always refused", token: token) {
                _ = try validator.validate(token, keys: keys, nonce: JWTFixtures.nonce)
            }
        }
    }

    @Test("HMAC (HS256, HS384, HS512) is refused", arguments: ["HS256", "HS384", "HS512"])
    func hmacRefused(_ name: String) async {
        // The classic forgery: an HMAC keyed with the issuer's public key. It never gets that far.
        let header = JWTFixtures.part(["alg": name, "kid": "rsa-1"])
        let payload = JWTFixtures.part(JWTFixtures.claims())
        let token =
            header + "." + payload + "." + Base64URL.encode(SHA2Hash.sha256(Array((header + "." + payload).utf8)))
        await expectJWTError(.invalidIDToken, "(HMAC) is refused", token: token) {
            _ = try JWTFixtures.validator().validate(token, keys: keys, nonce: JWTFixtures.nonce)
        }
    }

    @Test("an unknown alg is refused")
    func unknownAlgorithm() async {
        let token = JWTFixtures.part(["alg": "ES512\u{7}"]) + "." + JWTFixtures.part(JWTFixtures.claims()) + ".c2ln"
        await expectJWTError(.invalidIDToken, "alg “ES512?” is not supported", token: token) {
            _ = try JWTFixtures.validator().validate(token, keys: keys, nonce: nil)
        }
    }

    @Test("a tampered payload is refused")
    func tamperedPayload() async {
        let parts = JWTFixtures.token().split(separator: ".").map(String.init)
        let forged = parts[0] + "." + JWTFixtures.part(JWTFixtures.claims(["sub": "admin"])) + "." + parts[2]
        await expectJWTError(.invalidIDToken, "signature does not verify with the kid “rsa-1” key", token: forged) {
            _ = try JWTFixtures.validator().validate(forged, keys: keys, nonce: JWTFixtures.nonce)
        }
    }

    @Test("a tampered signature is refused", arguments: [SignatureAlgorithm.rs256, .ps256, .es256, .edDSA])
    func tamperedSignature(_ algorithm: SignatureAlgorithm) async throws {
        let parts = JWTFixtures.token(algorithm: algorithm).split(separator: ".").map(String.init)
        var signature = try #require(Base64URL.decode(parts[2]))
        signature[signature.count / 2] ^= 0x01
        let forged = parts[0] + "." + parts[1] + "." + Base64URL.encode(signature)
        await expectJWTError(.invalidIDToken, "signature does not verify", token: forged) {
            _ = try JWTFixtures.validator().validate(forged, keys: keys, nonce: JWTFixtures.nonce)
        }
        let truncated = parts[0] + "." + parts[1] + "." + Base64URL.encode(signature.dropLast(2))
        await expectJWTError(.invalidIDToken, "signature does not verify", token: truncated) {
            _ = try JWTFixtures.validator().validate(truncated, keys: keys, nonce: JWTFixtures.nonce)
        }
    }

    @Test("the kid selects the key among several of the same type")
    func kidSelection() async throws {
        let third = try TestSigner(.rsa())
        let set = try JSONWebKeySet(
            data: JWTFixtures.jwks([
                JWTFixtures.otherRSA.publicJWK(keyID: "k1"), JWTFixtures.rsa.publicJWK(keyID: "k2"),
                third.publicJWK(keyID: "k3"),
            ]))
        let validator = JWTFixtures.validator()
        _ = try validator.validate(JWTFixtures.token(kid: "k2"), keys: set, nonce: JWTFixtures.nonce)
        _ = try validator.validate(JWTFixtures.token(signer: third, kid: "k3"), keys: set, nonce: JWTFixtures.nonce)
        let token = try JWSToken(compact: JWTFixtures.token(signer: third, kid: "k3"))
        #expect(try token.verifySignature(keys: set, allowedAlgorithms: [.rs256]).keyID == "k3")

        let misnamed = JWTFixtures.token(kid: "k1")  // signed by k2's key, names k1
        await expectJWTError(.invalidIDToken, "does not verify with the kid “k1” key", token: misnamed) {
            _ = try validator.validate(misnamed, keys: set, nonce: JWTFixtures.nonce)
        }
        let unknown = JWTFixtures.token(kid: "k9")
        await expectJWTError(.invalidIDToken, "no key with kid “k9”", token: unknown) {
            _ = try validator.validate(unknown, keys: set, nonce: JWTFixtures.nonce)
        }
    }

    @Test("without a kid, every suitable key is tried: the one that verifies is taken, in any position")
    func noKid() async throws {
        let validator = JWTFixtures.validator()
        let token = JWTFixtures.token(algorithm: .es256, kid: JWTFixtures.noKid)
        // allKeys has one P-256 key among RSA, P-384 and Ed25519 keys.
        #expect(try validator.validate(token, keys: keys, nonce: JWTFixtures.nonce).sub == "user-1")

        // Two RSA keys without kids (conformance module rp-id_token-kid-absent-multiple-jwks): the signing key
        // verifies whether it is listed first or second.
        let rsaToken = JWTFixtures.token(kid: JWTFixtures.noKid)
        for order in [[JWTFixtures.rsa, JWTFixtures.otherRSA], [JWTFixtures.otherRSA, JWTFixtures.rsa]] {
            let twoRSA = try JSONWebKeySet(data: JWTFixtures.jwks(order.map { $0.publicJWK() }))
            #expect(try validator.validate(rsaToken, keys: twoRSA, nonce: JWTFixtures.nonce).sub == "user-1")
        }
        // A token signed by a key the set does not hold verifies with none of those that fit.
        let without = try JSONWebKeySet(
            data: JWTFixtures.jwks([JWTFixtures.otherRSA.publicJWK(), JWTFixtures.p256.publicJWK()]))
        await expectJWTError(.invalidIDToken, "does not verify with any key that fits", token: rsaToken) {
            _ = try validator.validate(rsaToken, keys: without, nonce: JWTFixtures.nonce)
        }
        // A JWK alg narrows the choice: only one of the two may verify RS256.
        let narrowed = try JSONWebKeySet(
            data: JWTFixtures.jwks([
                JWTFixtures.rsa.publicJWK(algorithm: .rs256), JWTFixtures.otherRSA.publicJWK(algorithm: .ps256),
            ]))
        #expect(try validator.validate(rsaToken, keys: narrowed, nonce: JWTFixtures.nonce).sub == "user-1")
        let noEC = try JSONWebKeySet(data: JWTFixtures.jwks([JWTFixtures.rsa.publicJWK()]))
        await expectJWTError(.invalidIDToken, "no kid and no key in the JWKS can verify ES256", token: token) {
            _ = try validator.validate(token, keys: noEC, nonce: JWTFixtures.nonce)
        }
    }

    @Test("the alg must fit the selected key's type")
    func algorithmKeyTypeMismatch() async throws {
        // An ES256 header naming the RSA key: refused before any verification.
        let parts = JWTFixtures.token(algorithm: .es256, kid: "rsa-1").split(separator: ".").map(String.init)
        let token = parts.joined(separator: ".")
        await expectJWTError(
            .invalidIDToken, "the key with kid “rsa-1” cannot verify ES256: it is an RSA key", token: token
        ) {
            _ = try JWTFixtures.validator().validate(token, keys: keys, nonce: JWTFixtures.nonce)
        }
        let p384Named = JWTFixtures.token(algorithm: .es256, kid: "p384-1")
        await expectJWTError(.invalidIDToken, "cannot verify ES256: it is an EC “P-384” key", token: p384Named) {
            _ = try JWTFixtures.validator().validate(p384Named, keys: keys, nonce: JWTFixtures.nonce)
        }
    }

    @Test("the alg must equal the JWK's alg when it has one")
    func algorithmMustEqualJWKAlgorithm() async throws {
        let set = try JSONWebKeySet(data: JWTFixtures.jwks([JWTFixtures.rsa.publicJWK(keyID: "r", algorithm: .rs256)]))
        // A genuine PS256 signature by the same key, but the JWK is restricted to RS256.
        let token = JWTFixtures.token(algorithm: .ps256, kid: "r")
        await expectJWTError(.invalidIDToken, "cannot verify PS256: the key is for RS256", token: token) {
            _ = try JWTFixtures.validator().validate(token, keys: set, nonce: JWTFixtures.nonce)
        }
        _ = try JWTFixtures.validator().validate(
            JWTFixtures.token(algorithm: .rs256, kid: "r"), keys: set, nonce: JWTFixtures.nonce)
    }

    @Test("an unusable key (RSA under 2048 bits) is reported as an ID token error")
    func weakKey() async throws {
        let weak = try TestSigner(.rsa(bits: 1024))
        let set = try JSONWebKeySet(data: JWTFixtures.jwks([weak.publicJWK(keyID: "weak")]))
        let token = JWTFixtures.token(signer: weak, kid: "weak")
        await expectJWTError(.invalidIDToken, "RSA key is 1024 bits", token: token) {
            _ = try JWTFixtures.validator().validate(token, keys: set, nonce: JWTFixtures.nonce)
        }
    }

    @Test("an access-token typ is refused as an ID token", arguments: ["at+jwt", "application/at+JWT", "logout+jwt"])
    func foreignType(_ type: String) async {
        let token = JWTFixtures.token(header: ["typ": type])
        await expectJWTError(.invalidIDToken, "is not an ID token type", token: token) {
            _ = try JWTFixtures.validator().validate(token, keys: keys, nonce: JWTFixtures.nonce)
        }
    }

    @Test("header keys (jwk, jku) are ignored: only the JWKS counts")
    func embeddedKeyIgnored() async throws {
        let attacker = JWTFixtures.otherRSA
        let token = JWTFixtures.token(
            signer: attacker, header: ["jwk": attacker.publicJWK(), "jku": "https://evil.example/jwks"])
        await expectJWTError(.invalidIDToken, "signature does not verify", token: token) {
            _ = try JWTFixtures.validator().validate(token, keys: keys, nonce: JWTFixtures.nonce)
        }
    }
}
