/// How the provider's endpoints are found at run time.
public enum DiscoverySpec: Sendable, Hashable {
    /// OpenID Connect discovery: `{issuer}/.well-known/openid-configuration`, with RFC 8414
    /// `oauth-authorization-server` as the fallback, or the document at `documentURL` alone when that renders
    /// to a value (a provider whose document is elsewhere). The document's `issuer` must equal the issuer
    /// either way. Its string members become `{discovered.NAME}` variables.
    case openID(issuer: ValueTemplate, documentURL: ValueTemplate? = nil)
    /// A provider's own configuration request (a request name); the listed members become
    /// `{discovered.NAME}` variables.
    case custom(request: String, members: [Member])

    /// One value taken from a custom discovery document.
    public struct Member: Sendable, Hashable {
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
public struct ClientPolicy: Sendable, Hashable {
    /// A pointer in the discovery document that is `true` for a confidential client, which an app
    /// must refuse (`confidential_client_in_mobile`).
    public var confidentialPointer: String?
    /// A pointer in the discovery document listing the redirect URIs the provider allows.
    public var allowedRedirectURIsPointer: String?

    /// Creates the policy.
    public init(confidentialPointer: String? = nil, allowedRedirectURIsPointer: String? = nil) {
        self.confidentialPointer = confidentialPointer
        self.allowedRedirectURIsPointer = allowedRedirectURIsPointer
    }
}

/// The formats of the provider's tokens and how to validate them.
public struct TokenSpec: Sendable, Hashable {
    /// A token format.
    public enum Format: String, Sendable, Hashable {
        /// A token the client must not look into.
        case opaque
        /// A JSON Web Token.
        case jwt
        /// PASETO version 4, public purpose (Ed25519).
        case pasetoV4Public = "paseto_v4_public"
    }

    /// The access token's format.
    public var accessTokenFormat: Format
    /// Whether ID tokens are validated (signature against JWKS, then claims).
    public var validatesIDToken: Bool
    /// The JWKS URL template, when ID tokens are validated.
    public var jwksURL: ValueTemplate?
    /// The expected issuer template.
    public var issuer: ValueTemplate?
    /// The URL template of the key set that verifiable access tokens are checked against: for
    /// ``Format/pasetoV4Public``, a `{"keys": [...]}` document (``PasetoKeySet/init(document:)``).
    public var accessTokenKeysURL: ValueTemplate?
    /// The `aud` a verified access token must carry, or `nil` not to check it.
    public var audience: String?
    /// The PASETO implicit assertion access tokens are signed with, used for the key-document entries that
    /// name none (`nil`: none).
    public var implicitAssertion: String?
    /// How an ID token's `iss` is compared with the expected issuer (exact by default).
    public var issuerValidation: IssuerValidation

    /// Creates the spec.
    public init(
        accessTokenFormat: Format = .opaque, validatesIDToken: Bool = false, jwksURL: ValueTemplate? = nil,
        issuer: ValueTemplate? = nil, accessTokenKeysURL: ValueTemplate? = nil, audience: String? = nil,
        implicitAssertion: String? = nil, issuerValidation: IssuerValidation = .exact
    ) {
        self.accessTokenFormat = accessTokenFormat
        self.validatesIDToken = validatesIDToken
        self.jwksURL = jwksURL
        self.issuer = issuer
        self.accessTokenKeysURL = accessTokenKeysURL
        self.audience = audience
        self.implicitAssertion = implicitAssertion
        self.issuerValidation = issuerValidation
    }
}
