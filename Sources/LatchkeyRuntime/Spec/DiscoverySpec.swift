import LatchkeyVocabulary

/// How the provider's endpoints are found at run time.
@_spi(Generated) public enum DiscoverySpec: Sendable {
    /// OpenID Connect discovery: `{issuer}/.well-known/openid-configuration`, with RFC 8414
    /// `oauth-authorization-server` as the fallback, or the document at `documentURL` alone when that renders
    /// to a value (a provider whose document is elsewhere). The document's `issuer` must equal the issuer
    /// either way. Its string members become `{discovered.NAME}` variables.
    case openID(issuer: ValueTemplate, documentURL: ValueTemplate? = nil)
    /// A provider's own configuration request (a request name); the listed members become
    /// `{discovered.NAME}` variables.
    case custom(request: String, members: [Member])

    /// One value taken from a custom discovery document.
    public struct Member: Sendable {
        /// The variable name, used as `{discovered.NAME}`.
        public var name: String
        /// Where it is in the document.
        public var pointer: String

        /// Creates a member.
        public init(name: String, pointer: String) {
            self.name = name
            self.pointer = pointer
        }
    }
}

/// Rules about the client itself.
@_spi(Generated) public struct ClientPolicy: Sendable {
    /// A pointer in the discovery document that is `true` for a confidential client, which an app
    /// must refuse (`confidential_client_in_mobile`).
    public var confidentialPointer: String?
    /// A pointer in the discovery document listing the redirect URIs the provider allows. A redirect URI
    /// the app gives must be one of them; when the app gives none, the first one is used.
    public var allowedRedirectURIsPointer: String?
    /// A pointer in the discovery document listing the scopes the client may request: requested when the
    /// app names no scopes (instead of the flow's default scopes).
    public var allowedScopesPointer: String?

    /// Creates the policy.
    /// - Parameters:
    ///   - confidentialPointer: Where the document says the client is confidential.
    ///   - allowedRedirectURIsPointer: Where the document lists the allowed redirect URIs.
    ///   - allowedScopesPointer: Where the document lists the scopes the client may request.
    public init(
        confidentialPointer: String? = nil, allowedRedirectURIsPointer: String? = nil,
        allowedScopesPointer: String? = nil
    ) {
        self.confidentialPointer = confidentialPointer
        self.allowedRedirectURIsPointer = allowedRedirectURIsPointer
        self.allowedScopesPointer = allowedScopesPointer
    }
}

/// The formats of the provider's tokens and how to validate them.
@_spi(Generated) public struct TokenSpec: Sendable {
    /// A token format.
    public typealias Format = TokenFormat

    /// The access token's format.
    public var accessTokenFormat: Format
    /// Whether ID tokens are validated (signature against JWKS, then claims).
    public var validatesIDToken: Bool
    /// The JWKS URL template, when ID tokens are validated.
    public var jwksURL: ValueTemplate?
    /// The expected issuer template.
    public var issuer: ValueTemplate?
    /// The URL template of the key set that verifiable access tokens are checked against: for
    /// ``TokenFormat/pasetoV4Public``, a `{"keys": [...]}` document (``PasetoKeySet/init(document:)``).
    public var accessTokenKeysURL: ValueTemplate?
    /// The `aud` a verified access token must carry (a template over the inputs, such as `{audience}` for an
    /// audience the app may override), or `nil` not to check it.
    public var audience: ValueTemplate?
    /// The PASETO implicit assertion access tokens are signed with, used for every key-document entry (an
    /// entry's own `implicit_assertion` is then ignored; `nil`: each entry's own, or none).
    public var implicitAssertion: String?
    /// How an ID token's `iss` is compared with the expected issuer (exact by default).
    public var issuerValidation: IssuerValidation
    /// Members a verified access token's footer must carry, a JSON object, with exactly these string values
    /// (Base IdP: `alg` `v4.public`, `typ` `paseto`).
    public var footer: [String: String]
    /// Claims a verified access token must carry: present, not `null`, not an empty string.
    public var requiredClaims: [String]
    /// Claims a verified access token must carry with exactly these string values (`token_use`: `access`).
    public var claimValues: [String: String]
    /// Whether the session's user is read from the verified access token's claims (through the provider's
    /// ``UserMapping``) at every sign-in and refresh, instead of from a user document or the token response.
    public var userFromAccessToken: Bool
    /// JSON pointers at which a user document fetched at sign-in must carry the same values as the verified
    /// access token's claims (Base IdP's `/v1/me`: `/gid`, `/sub`); a mismatch fails the sign-in.
    public var userDocumentMustMatch: [String]

    /// Creates the spec.
    /// - Parameters:
    ///   - accessTokenFormat: The access token's format.
    ///   - validatesIDToken: Whether ID tokens are validated.
    ///   - jwksURL: The JWKS URL template.
    ///   - issuer: The expected issuer template.
    ///   - accessTokenKeysURL: The access-token key set URL template.
    ///   - audience: The `aud` template a verified access token must carry.
    ///   - implicitAssertion: The PASETO implicit assertion for every key-document entry.
    ///   - issuerValidation: How an ID token's `iss` is compared.
    ///   - footer: Members a verified access token's footer must carry.
    ///   - requiredClaims: Claims a verified access token must carry.
    ///   - claimValues: Claims a verified access token must carry with exact values.
    ///   - userFromAccessToken: Whether the user comes from the verified access token.
    ///   - userDocumentMustMatch: Pointers where a user document must agree with the verified access token.
    public init(
        accessTokenFormat: Format = .opaque, validatesIDToken: Bool = false, jwksURL: ValueTemplate? = nil,
        issuer: ValueTemplate? = nil, accessTokenKeysURL: ValueTemplate? = nil, audience: ValueTemplate? = nil,
        implicitAssertion: String? = nil, issuerValidation: IssuerValidation = .exact, footer: [String: String] = [:],
        requiredClaims: [String] = [], claimValues: [String: String] = [:], userFromAccessToken: Bool = false,
        userDocumentMustMatch: [String] = []
    ) {
        self.accessTokenFormat = accessTokenFormat
        self.validatesIDToken = validatesIDToken
        self.jwksURL = jwksURL
        self.issuer = issuer
        self.accessTokenKeysURL = accessTokenKeysURL
        self.audience = audience
        self.implicitAssertion = implicitAssertion
        self.issuerValidation = issuerValidation
        self.footer = footer
        self.requiredClaims = requiredClaims
        self.claimValues = claimValues
        self.userFromAccessToken = userFromAccessToken
        self.userDocumentMustMatch = userDocumentMustMatch
    }
}
