import Foundation
import LatchkeyVocabulary

/// A set of trusted `v4.public` keys, each with a key ID: verifies a token with the key its footer's
/// `kid` names, then validates its claims. Standalone: a backend needs only the issuer's key document.
///
/// Key selection fails closed: a token without a `kid`, or with a `kid` not in the set, is rejected.
/// The `kid` is read from the footer before verification, but the footer is then covered by the
/// signature check.
public struct PasetoKeySet: Sendable, Hashable {
    /// The keys, in document order. Key IDs are unique.
    public let keys: [Key]

    /// Creates a key set from keys.
    /// - Parameter keys: The keys; no two may share a key ID.
    /// - Throws: ``AuthError`` `invalid_configuration` when a key ID repeats.
    public init(keys: [Key]) throws(AuthError) {
        var seen = Set<[UInt8]>()
        for key in keys where !seen.insert(Array(key.keyID.utf8)).inserted {
            throw AuthError(.invalidConfiguration, "PASETO key ID \"\(key.keyID)\" appears more than once")
        }
        self.keys = keys
    }

    /// The key with this key ID, compared byte for byte.
    /// - Parameter keyID: The key ID.
    /// - Returns: The key, or `nil` when the set has none with that ID.
    public func key(for keyID: String) -> Key? {
        keys.first { $0.keyID.utf8.elementsEqual(keyID.utf8) }
    }

    /// Verifies a token with the key its footer `kid` selects, then validates its claims.
    /// - Parameters:
    ///   - token: The `v4.public` token.
    ///   - validator: The claim rules (issuer, audience, leeway).
    ///   - now: The current time, for `exp`, `nbf` and `iat`.
    /// - Returns: The verified token.
    /// - Throws: ``AuthError`` `invalid_token` when the token is malformed, has no `kid` in a JSON footer,
    ///   names an unknown key, fails verification or fails claim validation.
    public func verify(_ token: String, validator: PasetoClaimsValidator, now: Date = Date()) throws(AuthError)
        -> PasetoVerifiedToken
    {
        guard let footer = PasetoV4Public.footer(of: token) else {
            // Let the full parser report precisely why the token is malformed.
            do {
                _ = try PasetoTokenParts(token)
            } catch {
                throw error.because(.malformed)
            }
            throw AuthError(.invalidToken, "PASETO token is malformed").because(.malformed)
        }
        guard let keyID = PasetoFooterKeyID.parse(footer) else {
            throw AuthError(.invalidToken, "PASETO footer has no kid to select a key").because(.malformed)
        }
        guard let key = key(for: keyID) else {
            throw AuthError(.invalidToken, "no key in the PASETO key set has the token's kid").because(.unknownKey)
        }
        let verified = try PasetoV4Public.verify(
            token, publicKey: key.publicKey, implicitAssertion: key.implicitAssertion)
        try validator.validate(verified.claims, now: now)
        return verified
    }
}
