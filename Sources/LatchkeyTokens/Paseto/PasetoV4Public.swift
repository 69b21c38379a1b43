import Foundation
import LatchkeyVocabulary

/// Verifies PASETO `v4.public` tokens (Ed25519 signatures over PAE-framed messages), offline and
/// without an `AuthClient`: a backend can check a token handed to it with only the issuer's public key.
///
/// A token is `v4.public.<base64url(m || sig)>[.<base64url(footer)>]`. Verification follows the
/// paseto-spec `Version4.md` "Verify" steps: the exact header, strict unpadded base64url, `sig` as the
/// last 64 bytes, then Ed25519 over `PAE("v4.public.", m, footer, implicitAssertion)`. The signed
/// message must then be a JSON object (paseto-spec, Payload Processing). Claims are not checked here;
/// use ``PasetoClaimsValidator`` (or ``PasetoKeySet``, which does both).
public enum PasetoV4Public {
    /// The header every `v4.public` token starts with, `h` in the specification.
    public static let header = "v4.public."

    /// The longest token accepted, in UTF-8 bytes (64 KiB). Longer input is rejected before any decoding.
    public static let maximumTokenLength = 65_536

    /// Verifies a token's signature and returns its payload and footer.
    ///
    /// - Parameters:
    ///   - token: The token text.
    ///   - publicKey: The issuer's raw 32-byte Ed25519 public key.
    ///   - expectedFooter: When not `nil`, the token's footer must equal these UTF-8 bytes exactly
    ///     (compared in constant time); `""` requires a token without footer.
    ///   - implicitAssertion: The implicit assertion `i` the issuer signed with (not part of the token).
    /// - Returns: The verified payload, footer and claims.
    /// - Throws: ``AuthError`` `invalid_token` when the token is malformed, too long, not `v4.public`,
    ///   has another footer than expected, fails the signature check, or its payload is not a JSON
    ///   object; also when the key is not 32 bytes. Messages never contain the token.
    public static func verify(
        _ token: String, publicKey: [UInt8], footer expectedFooter: String? = nil, implicitAssertion: [UInt8] = []
    ) throws(AuthError) -> PasetoVerifiedToken {
        let parts: PasetoTokenParts
        do {
            parts = try PasetoTokenParts(token)
        } catch {
            throw error.because(.malformed)
        }
        if let expectedFooter, !ConstantTime.equals(parts.footer, expectedFooter.utf8) {
            throw AuthError(.invalidToken, "PASETO footer does not match the expected footer").because(.malformed)
        }
        let signed = PreAuthenticationEncoding.encode([
            Array(header.utf8), parts.message, parts.footer, implicitAssertion,
        ])
        let valid = try SignatureVerifier.verify(
            algorithm: .edDSA, key: .ed25519(raw: publicKey), message: signed, signature: parts.signature)
        guard valid else { throw AuthError(.invalidToken, "PASETO signature is invalid").because(.invalidSignature) }
        guard PasetoJSONLimits.payload.allows(parts.message),
            let claims = JSON(data: Data(parts.message))?.object
        else {
            throw AuthError(.invalidToken, "PASETO payload is not a JSON object").because(.malformed)
        }
        return PasetoVerifiedToken(
            payload: parts.message, footer: parts.footer, claims: claims, keyID: PasetoFooterKeyID.parse(parts.footer))
    }

    /// The token's footer, decoded but **not authenticated**: for choosing a key before verifying.
    /// - Parameter token: The token text.
    /// - Returns: The footer bytes (empty when the token has none), or `nil` when the token is not a
    ///   well-formed `v4.public` token within ``maximumTokenLength``.
    public static func footer(of token: String) -> [UInt8]? {
        PasetoTokenParts.footer(of: token)
    }

    /// The `kid` of the token's JSON footer, **not authenticated**: use it only to look up a key you trust.
    /// - Parameter token: The token text.
    /// - Returns: The `kid` string, or `nil` when the token is malformed, has no footer, the footer is
    ///   not a small JSON object, or it has no string `kid`.
    public static func keyID(of token: String) -> String? {
        footer(of: token).flatMap(PasetoFooterKeyID.parse)
    }
}
