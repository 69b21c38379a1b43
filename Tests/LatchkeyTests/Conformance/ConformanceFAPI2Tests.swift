import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The ID-token modules of the OpenID conformance suite's FAPI 2.0 security profile client test plan
/// (`fapi2-security-profile-final-client-test-*`), played by the ``AdversarialOP`` as that plan's provider plays
/// them: its ID tokens are signed PS256 with a key whose JWK says `PS256`, discovery lists only `PS256` in
/// `id_token_signing_alg_values_supported`, and the JWKS also publishes an RSA key without `alg`
/// (`rsa-none-alt-arg`) that the alternate-algorithm module signs RS256 with.
@Suite("Conformance: FAPI 2.0 ID-token modules")
struct ConformanceFAPI2Tests {
    /// The plan's keys and discovery, then `edit` on every ID token.
    private static func playFAPI2(
        _ op: AdversarialOP, edit: @escaping @Sendable (inout AdversarialOP.IDTokenDraft) -> Void
    ) {
        let signing = AdversarialOP.Key(signer: AdversarialOP.rsaA, keyID: "ps-1", algorithm: .ps256)
        let alternate = AdversarialOP.Key(signer: AdversarialOP.rsaB, keyID: "rsa-none-alt-arg")
        op.useKeys([signing, alternate], signing: signing)
        op.behave {
            $0.discovery = { $0["id_token_signing_alg_values_supported"] = ["PS256"] }
            $0.idToken = { draft in
                draft.algorithm = .ps256
                draft.header["alg"] = "PS256"
                edit(&draft)
            }
        }
    }

    @Test("happy-path and valid-aud-as-array: a PS256 ID token, aud a string or a one-member array, is accepted")
    func happyPath() async throws {
        try await AdversarialOP.run { op in
            Self.playFAPI2(op) { _ in }
            try await ConformanceRP(op).expectSignIn()
            Self.playFAPI2(op) { $0.claims["aud"] = [AdversarialOP.clientID] }
            try await ConformanceRP(op).expectSignIn()
        }
    }

    @Test("invalid-alternate-alg: an ID token signed RS256 with a published key is refused (PS256 advertised)")
    func alternateAlgorithm() async throws {
        try await AdversarialOP.run { op in
            Self.playFAPI2(op) { draft in
                draft.signer = AdversarialOP.rsaB
                draft.algorithm = .rs256
                draft.header["alg"] = "RS256"
                draft.header["kid"] = "rsa-none-alt-arg"
            }
            let error = try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
            #expect(error?.message.contains("RS256") == true, "refused for its algorithm")
        }
    }

    @Test(
        "invalid-* ID-token modules: the sign-in fails with invalid_id_token and userinfo is never asked",
        arguments: [
            "invalid-iss", "invalid-missing-iss", "invalid-aud", "invalid-secondary-aud", "invalid-missing-aud",
            "invalid-expired-exp", "invalid-missing-exp", "invalid-nonce", "invalid-missing-nonce", "invalid-null-alg",
        ])
    func invalidIDToken(module: String) async throws {
        try await AdversarialOP.run { op in
            let now = Int(op.clock.now.timeIntervalSince1970)
            Self.playFAPI2(op) { draft in
                switch module {
                case "invalid-iss": draft.claims["iss"] = op.issuer + "1"
                case "invalid-missing-iss": draft.claims["iss"] = nil
                case "invalid-aud": draft.claims["aud"] = AdversarialOP.clientID + "1"
                case "invalid-secondary-aud":
                    draft.claims["aud"] = [AdversarialOP.clientID, AdversarialOP.clientID + "1"]
                case "invalid-missing-aud": draft.claims["aud"] = nil
                case "invalid-expired-exp": draft.claims["exp"] = now - 3600
                case "invalid-missing-exp": draft.claims["exp"] = nil
                case "invalid-nonce": draft.claims["nonce"] = "not-the-request-nonce"
                case "invalid-missing-nonce": draft.claims["nonce"] = nil
                default: draft.signature = .none
                }
            }
            try await ConformanceRP(op).expectRejectedSignIn(.invalidIDToken)
        }
    }
}
