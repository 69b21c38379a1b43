import Foundation
import LatchkeyTokens

extension IDTokenValidator {
    /// `iss` exactly; `aud` contains the client ID (and only trusted others); `azp` is the client ID
    /// when present, and present when there are several audiences.
    func checkIssuerAndAudience(_ claims: IDTokenClaims) throws(AuthError) {
        let issuer = try expectedIssuer(for: claims)
        guard claims.iss == issuer else {
            throw AuthError(
                .invalidIDToken, "the iss claim \(MessageText.quoted(claims.iss)) is not \(MessageText.quoted(issuer))")
        }
        guard claims.aud.contains(clientID) else {
            throw AuthError(.invalidIDToken, "the aud claim does not contain the client ID")
        }
        if let trustedAudiences,
            let other = claims.aud.first(where: { $0 != clientID && !trustedAudiences.contains($0) })
        {
            throw AuthError(
                .invalidIDToken, "the aud claim contains the untrusted audience \(MessageText.quoted(other))")
        }
        if let azp = claims.azp {
            guard azp == clientID else {
                throw AuthError(.invalidIDToken, "the azp claim \(MessageText.quoted(azp)) is not the client ID")
            }
        } else if Set(claims.aud).count > 1 {
            throw AuthError(.invalidIDToken, "the token has several audiences but no azp claim")
        }
    }

    /// `exp`, `iat`, `nbf` and `auth_time` against the clock, with the leeway.
    func checkTimes(_ claims: IDTokenClaims, checksMaxAge: Bool) throws(AuthError) {
        let now = self.now()
        // The property may have been set after init: a negative or non-finite leeway counts as none.
        let leeway = self.leeway.isFinite ? max(self.leeway, 0) : 0
        guard claims.exp.timeIntervalSince(now) > -leeway else {
            throw AuthError(
                .invalidIDToken, "the token expired at \(Self.format(claims.exp)) (now \(Self.format(now)))")
        }
        guard claims.iat.timeIntervalSince(now) <= leeway else {
            throw AuthError(
                .invalidIDToken, "the iat claim \(Self.format(claims.iat)) is in the future (now \(Self.format(now)))")
        }
        if let nbf = claims.nbf, nbf.timeIntervalSince(now) > leeway {
            throw AuthError(
                .invalidIDToken, "the token is not valid before \(Self.format(nbf)) (now \(Self.format(now)))")
        }
        if let authTime = claims.authTime, authTime.timeIntervalSince(now) > leeway {
            throw AuthError(.invalidIDToken, "the auth_time claim \(Self.format(authTime)) is in the future")
        }
        guard checksMaxAge else { return }
        if claims.authTime == nil, maxAge != nil || requiresAuthTime {
            throw AuthError(
                .invalidIDToken,
                maxAge != nil
                    ? "the auth_time claim is missing although max_age was requested" : "the auth_time claim is missing"
            )
        }
        if let maxAge, let authTime = claims.authTime, now.timeIntervalSince(authTime) > maxAge + leeway {
            throw AuthError(
                .invalidIDToken,
                "the user authenticated at \(Self.format(authTime)), more than max_age \(Int(maxAge)) s ago")
        }
    }

    /// `nonce` against the rule. The values are never quoted.
    func checkNonce(_ claims: IDTokenClaims, rule: NonceRule) throws(AuthError) {
        switch rule {
        case .expected(nil):
            return
        case .expected(let expected?):
            guard let nonce = claims.nonce else { throw AuthError(.invalidIDToken, "the nonce claim is missing") }
            guard ConstantTime.equals(nonce, expected) else {
                throw AuthError(.invalidIDToken, "the nonce claim does not match the nonce of the request")
            }
        case .absentOrEqual(let original):
            guard let nonce = claims.nonce else { return }
            guard let original, ConstantTime.equals(nonce, original) else {
                throw AuthError(.invalidIDToken, "the refreshed token's nonce differs from the original token's")
            }
        }
    }

    static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
