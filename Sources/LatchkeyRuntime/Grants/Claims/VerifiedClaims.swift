import LatchkeyTokens

/// An access token's claims after the token was verified (a generated client's `getClaims(jwt:)`).
public struct VerifiedClaims: Sendable, Hashable, CustomStringConvertible {
    /// How the token was verified.
    public enum Verification: Sendable, Hashable {
        /// Its signature verified with a published key (the JWKS entry's `kid`, when it has one).
        case signature(algorithm: String, keyID: String?)
        /// No published key could verify it (a symmetric project, or an unknown `kid`), and the server
        /// accepted it for the user it names.
        case server
    }

    /// The token's claims (its payload).
    public var claims: [String: JSON]
    /// The token's JOSE header.
    public var header: [String: JSON]
    /// How the token was verified.
    public var verification: Verification

    /// Creates verified claims.
    /// - Parameters:
    ///   - claims: The payload.
    ///   - header: The header.
    ///   - verification: How the token was verified.
    public init(claims: [String: JSON], header: [String: JSON], verification: Verification) {
        self.claims = claims
        self.header = header
        self.verification = verification
    }

    /// The `sub` claim.
    public var subject: String? { claims["sub"]?.string }

    /// `VerifiedClaims(4 claims, signature)`: no claim's value (an email address, a session id) is printed.
    public var description: String {
        let how: String =
            switch verification {
            case .signature(let algorithm, _): "signature \(algorithm)"
            case .server: "server"
            }
        return "VerifiedClaims(\(claims.count) claims, \(how))"
    }
}

/// The authenticator assurance level of the session, read from its verified access token (a generated
/// client's `getAuthenticatorAssuranceLevel()`).
public struct AssuranceLevel: Sendable, Hashable {
    /// One authentication method the session's sign-in used (an `amr` entry).
    public struct Method: Sendable, Hashable {
        /// The method (`password`, `totp`, `otp`, `oauth`, …).
        public var method: String
        /// When it was used, in seconds since 1970, when the token says.
        public var timestamp: Double?

        /// Creates a method entry.
        public init(method: String, timestamp: Double?) {
            self.method = method
            self.timestamp = timestamp
        }
    }

    /// The session's level (`aal1`, `aal2`); `nil` when signed out or the token has none.
    public var currentLevel: String?
    /// The level the user can reach: the elevated level once a factor is verified, else the current one.
    public var nextLevel: String?
    /// The methods the session's sign-in used, in the token's order.
    public var currentAuthenticationMethods: [Method]

    /// Creates a level.
    public init(currentLevel: String?, nextLevel: String?, currentAuthenticationMethods: [Method]) {
        self.currentLevel = currentLevel
        self.nextLevel = nextLevel
        self.currentAuthenticationMethods = currentAuthenticationMethods
    }
}
