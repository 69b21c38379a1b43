import Foundation
@_spi(Generated) import LatchkeyRuntime
import LatchkeyTokens

/// Mints PASETO `v4.public` access tokens for descriptors whose access tokens are verifiable
/// (``TokenSpec/Format/pasetoV4Public``), and the key document they are checked against.
struct SimulatorPaseto: Sendable {
    /// The Ed25519 key.
    let signer: TestSigner
    /// The implicit assertion every token is signed with (the descriptor's `tokens.implicitAssertion`). It
    /// is not published in the key document, as real issuers don't: the client must know it from the descriptor.
    let implicitAssertion: String
    /// The `kid` in every token's footer and in the key document.
    let keyID = "simulator-paseto-1"

    /// Footer members beside `kid` (the descriptor's `tokens.footer`).
    var footerMembers: [String: String] = [:]

    /// Signs claims as a `v4.public` token with `{"kid": ...}` (and ``footerMembers``) as its footer
    /// (paseto-spec, Version 4, Sign).
    func token(claims: [String: Any]) -> String? {
        let footerObject = footerMembers.merging(["kid": keyID]) { _, kid in kid }
        guard let message = try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]),
            let footer = try? JSONSerialization.data(withJSONObject: footerObject, options: [.sortedKeys])
        else { return nil }
        let header = Array("v4.public.".utf8)
        let signed = Self.preAuthenticationEncoding([
            header, Array(message), Array(footer), Array(implicitAssertion.utf8),
        ])
        guard let signature = try? signer.sign(signed, algorithm: .edDSA) else { return nil }
        return "v4.public." + Base64URL.encode(Array(message) + signature) + "." + Base64URL.encode(Array(footer))
    }

    /// The access token's claims: the principal's claims, then `iss`, `aud`, `sub`, RFC 3339
    /// `iat`/`nbf`/`exp`, a unique `jti` and `token_use` `access`.
    func accessToken(
        subject: String, issuer: String, audience: String, now: Date, lifetime: TimeInterval,
        principal: [String: Any] = [:]
    ) -> String? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let registered: [String: Any] = [
            "iss": issuer, "aud": audience, "sub": subject, "iat": formatter.string(from: now),
            "nbf": formatter.string(from: now), "exp": formatter.string(from: now.addingTimeInterval(lifetime)),
            "jti": UUID().uuidString.lowercased(), "token_use": "access",
        ]
        return token(claims: principal.merging(registered) { _, registered in registered })
    }

    /// `{"keys": [{"kid", "alg": "v4.public", "kty": "OKP", "crv": "Ed25519", "public_key_base64"}]}`.
    var keyDocument: [String: Any] {
        guard case .ed25519(let raw) = signer.publicKey else { return ["keys": [Any]()] }
        return [
            "keys": [
                [
                    "kid": keyID, "alg": "v4.public", "kty": "OKP", "crv": "Ed25519",
                    "public_key_base64": Base64URL.encode(raw),
                ] as [String: Any]
            ]
        ]
    }

    /// PAE: the piece count, then each piece with its length, as little-endian 64-bit integers (top bit clear).
    static func preAuthenticationEncoding(_ pieces: [[UInt8]]) -> [UInt8] {
        func le64(_ value: Int) -> [UInt8] {
            let cleared = UInt64(value) & 0x7FFF_FFFF_FFFF_FFFF
            return stride(from: 0, to: 64, by: 8).map { UInt8(truncatingIfNeeded: cleared >> UInt64($0)) }
        }
        var output = le64(pieces.count)
        for piece in pieces { output += le64(piece.count) + piece }
        return output
    }
}
