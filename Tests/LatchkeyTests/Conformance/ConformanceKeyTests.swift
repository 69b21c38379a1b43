import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The signature and key modules: algorithms, forged signatures, absent `kid`s and key rotation.
@Suite("Conformance: signatures and keys")
struct ConformanceKeyTests {
    @Test("oidcc-client-test-idtoken-sig-none: an unsigned ID token is refused, with no JWKS request")
    func algNone() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.idToken = { $0.signature = .none } }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
            #expect(op.requests("/jwks").isEmpty)
        }
    }

    @Test("oidcc-client-test-invalid-sig-rs256: a corrupted RS256 signature is refused")
    func badRS256() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.idToken = { $0.signature = .corrupted } }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
        }
    }

    @Test("oidcc-client-test-invalid-sig-es256: a corrupted ES256 signature is refused")
    func badES256() async throws {
        try await AdversarialOP.run { op in
            let ec = AdversarialOP.Key(signer: AdversarialOP.p256, keyID: "ec-1")
            op.useKeys([AdversarialOP.Key(signer: AdversarialOP.rsaA, keyID: "key-a"), ec], signing: ec)
            op.behave {
                $0.discovery = { $0["id_token_signing_alg_values_supported"] = ["RS256", "ES256"] }
                $0.idToken = { draft in
                    draft.algorithm = .es256
                    draft.header["alg"] = "ES256"
                    draft.claims["at_hash"] = nil
                    draft.signature = .corrupted
                }
            }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
            // The same token with its signature intact passes: the refusal was the signature's.
            op.behave {
                $0.idToken = { draft in
                    draft.algorithm = .es256
                    draft.header["alg"] = "ES256"
                    draft.claims["at_hash"] = nil
                }
            }
            try await ConformanceRP(op).expectSignIn()
        }
    }

    @Test("oidcc-client-test-invalid-sig-hs256: an HMAC-signed ID token is refused (a public client has no secret)")
    func hs256() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.idToken = { $0.signature = .hs256 } }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
        }
    }

    @Test("id_token_signing_alg_values_supported: an algorithm the provider does not advertise is refused")
    func unadvertisedAlgorithm() async throws {
        try await AdversarialOP.run { op in
            let ec = AdversarialOP.Key(signer: AdversarialOP.p256, keyID: "ec-1")
            op.useKeys([AdversarialOP.Key(signer: AdversarialOP.rsaA, keyID: "key-a"), ec], signing: ec)
            // Discovery advertises RS256 only; the token is validly signed with ES256.
            op.behave {
                $0.idToken = { draft in
                    draft.algorithm = .es256
                    draft.header["alg"] = "ES256"
                    draft.claims["at_hash"] = nil
                }
            }
            let error = try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
            #expect(error?.message.contains("ES256") == true)
            #expect(op.requests("/jwks").isEmpty, "refused before any key was fetched")
        }
    }

    @Test("oidcc-client-test-kid-absent-single-jwks: no kid and one key")
    func kidAbsentSingle() async throws {
        try await AdversarialOP.run { op in
            let key = AdversarialOP.Key(signer: AdversarialOP.rsaA, keyID: nil)
            op.useKeys([key], signing: key)
            try await ConformanceRP(op).expectSignIn()
        }
    }

    @Test(
        "oidcc-client-test-kid-absent-multiple-jwks: no kid and several RSA keys; each that fits is tried",
        arguments: [0, 1])
    func kidAbsentMultiple(signingIndex: Int) async throws {
        try await AdversarialOP.run { op in
            let keys = [
                AdversarialOP.Key(signer: AdversarialOP.rsaA, keyID: nil),
                AdversarialOP.Key(signer: AdversarialOP.rsaB, keyID: nil),
                AdversarialOP.Key(signer: AdversarialOP.p256, keyID: nil),
            ]
            op.useKeys(keys, signing: keys[signingIndex])
            try await ConformanceRP(op).expectSignIn()
            #expect(op.requests("/jwks").count == 1)
        }
    }

    @Test("no kid, several keys, none of which signed the token: refused")
    func kidAbsentNoneVerifies() async throws {
        try await AdversarialOP.run { op in
            let published = [AdversarialOP.Key(signer: AdversarialOP.rsaB, keyID: nil)]
            op.useKeys(published, signing: AdversarialOP.Key(signer: AdversarialOP.rsaA, keyID: nil, published: false))
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
        }
    }

    @Test("oidcc-client-test-signing-key-rotation: a second sign-in right after a rotation succeeds")
    func keyRotation() async throws {
        try await AdversarialOP.run { op in
            let rp = try ConformanceRP(op)
            try await rp.signIn()
            #expect(op.requests("/jwks").count == 1)
            try await rp.client.signOut()
            let rotated = AdversarialOP.Key(signer: AdversarialOP.rsaB, keyID: "key-b")
            op.useKeys([rotated], signing: rotated)
            op.clock.advance(5)
            try await rp.expectSignIn()
            #expect(op.requests("/jwks").count == 2, "the unknown kid refetched the JWKS once")
        }
    }

    @Test("a rotation between two sign-ins whose tokens carry no kid: the JWKS is fetched again once")
    func keylessRotation() async throws {
        try await AdversarialOP.run { op in
            let first = AdversarialOP.Key(signer: AdversarialOP.rsaA, keyID: nil)
            op.useKeys([first], signing: first)
            let rp = try ConformanceRP(op)
            try await rp.signIn()
            try await rp.client.signOut()
            let rotated = AdversarialOP.Key(signer: AdversarialOP.rsaB, keyID: nil)
            op.useKeys([rotated], signing: rotated)
            try await rp.expectSignIn()
            #expect(op.requests("/jwks").count == 2)
            // A forged kid-less token refetches at most once more within the minute.
            try await rp.client.signOut()
            op.useKeys([rotated], signing: AdversarialOP.Key(signer: AdversarialOP.rsaA, keyID: nil, published: false))
            try await rp.expectRejectedSignIn(.invalidIDToken)
            try await rp.expectRejectedSignIn(.invalidIDToken)
            #expect(op.requests("/jwks").count == 3)
        }
    }

    @Test("oidcc-client-test-signing-key-rotation-just-before-signing: rotated at the token endpoint")
    func keyRotationJustBeforeSigning() async throws {
        try await AdversarialOP.run { op in
            let rp = try ConformanceRP(op)
            try await rp.signIn()
            op.behave { $0.rotateBeforeSigning = AdversarialOP.Key(signer: AdversarialOP.rsaB, keyID: "key-b") }
            try await rp.expectSignIn()
            #expect(op.requests("/jwks").count == 2)
        }
    }

    @Test("tokens naming unknown kids cannot make the client flood the JWKS endpoint")
    func unknownKidsAreBounded() async throws {
        try await AdversarialOP.run { op in
            let rp = try ConformanceRP(op)
            try await rp.signIn()
            try await rp.client.signOut()
            for index in 0..<6 {
                op.behave { $0.idToken = { $0.header["kid"] = "made-up-\(index)" } }
                try await rp.expectRejectedSignIn(.invalidIDToken)
            }
            op.behave { $0.idToken = { $0.header["kid"] = "made-up-0" } }
            try await rp.expectRejectedSignIn(.invalidIDToken)
            // One fetch on first use, then at most the budget (3) of refetches within the minute.
            #expect(op.requests("/jwks").count == 1 + JWKSCache.defaultUnknownKeyRefetchBudget)
        }
    }
}
