import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// The descriptor's own checks of a verified access token, beyond signature, dates, issuer and audience:
/// the footer members (Base IdP: `alg` `v4.public`, `typ` `paseto`), the required claims, the claim values,
/// and a present `token_use` being `access`.
struct AccessTokenRules: Sendable {
    /// The descriptor's token rules.
    let tokens: TokenSpec

    /// Checks a verified token.
    /// - Parameter verified: The token whose signature checked out.
    /// - Throws: `invalid_token` marked ``TokenVerificationFailure/malformed`` for a footer that lacks a
    ///   member, or ``TokenVerificationFailure/invalidClaims`` for a missing or wrong claim.
    func check(_ verified: PasetoVerifiedToken) throws(AuthError) {
        if !tokens.footer.isEmpty {
            let footer = PasetoJSONLimits.footer.allows(verified.footer) ? JSON(data: Data(verified.footer)) : nil
            for name in tokens.footer.keys.sorted() {
                guard let expected = tokens.footer[name], let value = footer?.object?[name]?.string,
                    value.utf8.elementsEqual(expected.utf8)
                else {
                    throw AuthError(
                        .invalidToken, "The access token's footer has no \(name) \"\(tokens.footer[name] ?? "")\"."
                    )
                    .because(.malformed)
                }
            }
        }
        let claims = verified.claims
        if let use = claims["token_use"], use.string != "access" {
            throw AuthError(.invalidToken, "The access token's token_use is not \"access\".").because(.invalidClaims)
        }
        for name in tokens.claimValues.keys.sorted() {
            guard let expected = tokens.claimValues[name], let value = claims[name]?.string,
                value.utf8.elementsEqual(expected.utf8)
            else {
                throw AuthError(
                    .invalidToken, "The access token's \(name) claim is not \"\(tokens.claimValues[name] ?? "")\"."
                )
                .because(.invalidClaims)
            }
        }
        for name in tokens.requiredClaims {
            guard let value = claims[name], !value.isNull, value.string?.isEmpty != true else {
                throw AuthError(.invalidToken, "The access token has no \(name) claim.").because(.invalidClaims)
            }
        }
    }
}
