import Foundation
import LatchkeyVocabulary

/// Validates the registered claims of a verified PASETO payload (paseto-spec, Registered Claims):
/// the `exp`, `nbf` and `iat` RFC 3339 date-times against a clock with some leeway, and `iss`, `aud`
/// and optionally `sub` for exact equality.
///
/// Run it only on claims whose signature was verified (``PasetoVerifiedToken/claims``).
public struct PasetoClaimsValidator: Sendable, Hashable {
    /// The required `iss`, or `nil` to accept any issuer (or none).
    public var issuer: String?
    /// The required `aud` (a string claim), or `nil` to accept any audience (or none).
    public var audience: String?
    /// The required `sub`, or `nil` to accept any subject (or none).
    public var subject: String?
    /// Leeway for clock differences, in seconds, applied to `exp`, `nbf` and `iat`.
    public var skew: TimeInterval
    /// Whether a token without `exp` is rejected. On by default: a token that never expires is rarely intended.
    public var requiresExpiration: Bool

    /// Creates a validator. `issuer` and `audience` have no default so that skipping them is a visible choice.
    /// - Parameters:
    ///   - issuer: The required `iss`, or `nil` not to check it.
    ///   - audience: The required `aud`, or `nil` not to check it.
    ///   - subject: The required `sub`, or `nil` not to check it.
    ///   - skew: The clock leeway in seconds (60 by default; negative values count as 0).
    ///   - requiresExpiration: Whether `exp` must be present (`true` by default).
    public init(
        issuer: String?, audience: String?, subject: String? = nil, skew: TimeInterval = 60,
        requiresExpiration: Bool = true
    ) {
        self.issuer = issuer
        self.audience = audience
        self.subject = subject
        self.skew = skew
        self.requiresExpiration = requiresExpiration
    }

    /// Checks the claims.
    ///
    /// A date claim that is present must be a valid RFC 3339 string. The token is rejected when
    /// `now - skew >= exp`, when `now + skew < nbf`, or when `now + skew < iat` (issued in the future).
    /// - Parameters:
    ///   - claims: The verified payload's claims.
    ///   - now: The current time (inject a fixed date in tests).
    /// - Throws: ``AuthError`` `invalid_token` naming the failing claim; messages never contain the token.
    public func validate(_ claims: [String: JSON], now: Date) throws(AuthError) {
        let leeway = max(skew, 0)
        if let expiration = try Self.date("exp", in: claims) {
            guard now.addingTimeInterval(-leeway) < expiration else {
                throw AuthError(.invalidToken, "PASETO token has expired (exp is in the past)").because(.expired)
            }
        } else if requiresExpiration {
            throw AuthError(.invalidToken, "PASETO token has no exp claim").because(.invalidClaims)
        }
        if let notBefore = try Self.date("nbf", in: claims), now.addingTimeInterval(leeway) < notBefore {
            throw AuthError(.invalidToken, "PASETO token is not valid yet (nbf is in the future)").because(.notYetValid)
        }
        if let issuedAt = try Self.date("iat", in: claims), now.addingTimeInterval(leeway) < issuedAt {
            throw AuthError(.invalidToken, "PASETO token was issued in the future (iat)").because(.notYetValid)
        }
        try Self.require("iss", equal: issuer, in: claims)
        try Self.require("aud", equal: audience, in: claims)
        try Self.require("sub", equal: subject, in: claims)
    }

    /// The date of a DateTime claim; `nil` when absent, throws when present but not RFC 3339.
    private static func date(_ name: String, in claims: [String: JSON]) throws(AuthError) -> Date? {
        guard let value = claims[name] else { return nil }
        guard let text = value.string, let date = RFC3339DateTime.parse(text) else {
            throw AuthError(.invalidToken, "PASETO \(name) claim is not an RFC 3339 date-time string").because(
                .invalidClaims)
        }
        return date
    }

    /// Throws unless the string claim equals the expected value (when there is one).
    private static func require(_ name: String, equal expected: String?, in claims: [String: JSON]) throws(AuthError) {
        guard let expected else { return }
        guard let value = claims[name] else {
            throw AuthError(.invalidToken, "PASETO token has no \(name) claim").because(.invalidClaims)
        }
        guard let text = value.string else {
            throw AuthError(.invalidToken, "PASETO \(name) claim is not a string").because(.invalidClaims)
        }
        // Byte equality: String's == would also equate canonically equivalent Unicode spellings.
        guard text.utf8.elementsEqual(expected.utf8) else {
            throw AuthError(.invalidToken, "PASETO \(name) claim is not \"\(expected)\"").because(.invalidClaims)
        }
    }
}
