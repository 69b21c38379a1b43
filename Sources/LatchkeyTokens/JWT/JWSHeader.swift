/// The protected header of a JWS (RFC 7515 §4): the members Latchkey reads, and all of them as JSON.
///
/// Keys embedded in or pointed to by the header (`jwk`, `jku`, `x5c`, `x5u`) are never used: keys come
/// only from the issuer's JWKS.
public struct JWSHeader: Sendable, Hashable {
    /// The `alg` member, as written (it may name an algorithm Latchkey refuses, such as `none`).
    public let algorithm: String
    /// The `kid` member, when present.
    public let keyID: String?
    /// The `typ` member, when present.
    public let type: String?
    /// Every member of the header.
    public let members: [String: JSON]

    /// Reads a header object.
    /// - Parameters:
    ///   - members: The decoded header object.
    ///   - failureCode: The code of the error thrown.
    /// - Throws: ``AuthError`` with `failureCode` when `alg` is missing or not a string, `kid` or `typ` is
    ///   not a string, or `crit` names extensions (Latchkey understands none, so it must refuse them).
    package init(members: [String: JSON], failureCode: AuthError.Code) throws(AuthError) {
        guard let algorithm = members["alg"]?.string, !algorithm.isEmpty else {
            throw AuthError(failureCode, "the JWS header has no alg string")
        }
        if let kid = members["kid"], kid.string == nil {
            throw AuthError(failureCode, "the JWS header's kid is not a string")
        }
        if let typ = members["typ"], typ.string == nil {
            throw AuthError(failureCode, "the JWS header's typ is not a string")
        }
        if members["crit"] != nil {
            throw AuthError(failureCode, "the JWS header lists critical extensions (crit), which are not supported")
        }
        self.algorithm = algorithm
        self.keyID = members["kid"]?.string
        self.type = members["typ"]?.string
        self.members = members
    }
}
