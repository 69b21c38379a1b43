import LatchkeyVocabulary

/// How a client verifies an access token's claims (the descriptor's `accessTokenClaims`): against the
/// project's published keys, or, when none verifies the token, by asking the server.
@_spi(Generated) public struct AccessTokenClaimsSpec: Sendable {
    /// The request (response `document`) that fetches the JWKS, so it carries the provider's headers.
    public var keysRequest: String
    /// The asymmetric algorithms accepted.
    public var algorithms: [String]
    /// The `iss` a verified token must carry, if checked.
    public var issuer: ValueTemplate?
    /// The request (response `user`, sent with `{jwt}`) that asks the server about a token no published key
    /// verifies; `nil`: such a token is refused.
    public var fallbackRequest: String?
    /// How the authenticator assurance level is read, if the client offers it.
    public var assurance: AssuranceSpec?

    /// Creates the spec.
    public init(
        keysRequest: String, algorithms: [String] = ["ES256", "RS256"], issuer: ValueTemplate? = nil,
        fallbackRequest: String? = nil, assurance: AssuranceSpec? = nil
    ) {
        self.keysRequest = keysRequest
        self.algorithms = algorithms
        self.issuer = issuer
        self.fallbackRequest = fallbackRequest
        self.assurance = assurance
    }
}

/// Where the authenticator assurance level is in verified access-token claims and the user document.
@_spi(Generated) public struct AssuranceSpec: Sendable {
    /// The claim holding the current level (`aal`).
    public var levelClaim: String
    /// The claim listing the authentication methods used (`amr`), if any.
    public var methodsClaim: String?
    /// Where the user document lists the enrolled factors (`/factors`), if anywhere.
    public var factors: String?
    /// Where a factor names its status (`/status`).
    public var factorStatus: String
    /// The status of a verified factor (`verified`).
    public var verifiedStatus: String
    /// The level a user with a verified factor can reach (`aal2`).
    public var elevatedLevel: String

    /// Creates the spec.
    public init(
        levelClaim: String, methodsClaim: String? = nil, factors: String? = nil, factorStatus: String = "/status",
        verifiedStatus: String = "verified", elevatedLevel: String
    ) {
        self.levelClaim = levelClaim
        self.methodsClaim = methodsClaim
        self.factors = factors
        self.factorStatus = factorStatus
        self.verifiedStatus = verifiedStatus
        self.elevatedLevel = elevatedLevel
    }
}

/// An action's follow-up: the action performed next, with arguments read from the answer before it, and the
/// passkey ceremony run between the two, if any.
@_spi(Generated) public struct ActionFollowUpSpec: Sendable {
    /// The action performed next.
    public var action: String
    /// Its arguments read from the answer before it: parameter name → JSON pointer.
    public var arguments: [String: String]
    /// The WebAuthn ceremony run with that answer's options before the action, if any.
    public var ceremony: PasskeyCeremonySpec?

    /// Creates the spec.
    public init(action: String, arguments: [String: String], ceremony: PasskeyCeremonySpec? = nil) {
        self.action = action
        self.arguments = arguments
        self.ceremony = ceremony
    }
}
