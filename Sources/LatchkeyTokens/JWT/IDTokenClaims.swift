import Foundation

/// The claims of an ID token (OpenID Connect Core §2), as `IDTokenValidator` returns them once the
/// token is verified.
///
/// Property names are the claim names. `raw` holds every claim, standard or not.
public struct IDTokenClaims: Sendable, Hashable {
    /// `iss`: the issuer identifier.
    public let iss: String
    /// `sub`: the subject, the user's stable identifier at the issuer.
    public let sub: String
    /// `aud`: the audiences (a single string in the token becomes a one-element array).
    public let aud: [String]
    /// `exp`: the expiry time.
    public let exp: Date
    /// `iat`: the issue time.
    public let iat: Date
    /// `nbf`: the time before which the token is not valid, when present.
    public let nbf: Date?
    /// `auth_time`: when the user authenticated, when present.
    public let authTime: Date?
    /// `nonce`: the value the client sent in the authentication request, when present.
    public let nonce: String?
    /// `azp`: the authorized party, when present.
    public let azp: String?
    /// `at_hash`: the access token hash, when present.
    public let atHash: String?
    /// `email`, when present.
    public let email: String?
    /// `email_verified`, when present (the strings `"true"` and `"false"` are read as booleans).
    public let emailVerified: Bool?
    /// `name`, when present.
    public let name: String?
    /// Every claim of the token.
    public let raw: [String: JSON]

    /// Reads the claims of a token's payload.
    ///
    /// This checks presence and types only (`iss`, `sub`, `aud`, `exp`, `iat` are required); it does not
    /// check signatures, issuers, audiences or times: `IDTokenValidator` does.
    /// - Parameter raw: The payload's members, for example from a stored session.
    /// - Throws: ``AuthError`` `invalid_id_token` when a required claim is missing or a claim has the wrong
    ///   type.
    public init(raw: [String: JSON]) throws(AuthError) {
        try self.init(raw: raw, failureCode: .invalidIDToken)
    }

    package init(raw: [String: JSON], failureCode: AuthError.Code) throws(AuthError) {
        let reader = ClaimReader(claims: raw, failureCode: failureCode)
        self.iss = try reader.requiredString("iss")
        self.sub = try reader.requiredString("sub")
        guard sub.utf8.count <= 255 else {
            throw AuthError(failureCode, "the sub claim is longer than 255 bytes")
        }
        self.aud = try reader.audiences()
        self.exp = try reader.requiredDate("exp")
        self.iat = try reader.requiredDate("iat")
        self.nbf = try reader.date("nbf")
        self.authTime = try reader.date("auth_time")
        self.nonce = try reader.string("nonce")
        self.azp = try reader.string("azp")
        self.atHash = try reader.string("at_hash")
        self.email = try reader.string("email")
        self.emailVerified = reader.lenientBool("email_verified")
        self.name = try reader.string("name")
        self.raw = raw
    }
}

extension IDTokenClaims: CustomStringConvertible {
    /// A summary without personal data or the nonce: issuer, audiences and times.
    public var description: String {
        "IDTokenClaims(iss: \(MessageText.quoted(iss)), aud: \(aud.count) audience(s), "
            + "exp: \(Int(exp.timeIntervalSince1970)), iat: \(Int(iat.timeIntervalSince1970)))"
    }
}
