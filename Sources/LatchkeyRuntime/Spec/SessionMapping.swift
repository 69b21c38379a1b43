/// Where the session's fields are in a token response (JSON pointers).
@_spi(Generated) public struct SessionMapping: Sendable {
    /// The access token.
    public var accessToken: String
    /// The refresh token.
    public var refreshToken: String?
    /// The ID token.
    public var idToken: String?
    /// The token type.
    public var tokenType: String?
    /// Lifetime in seconds from now.
    public var expiresIn: String?
    /// Absolute expiry in seconds since 1970.
    public var expiresAt: String?
    /// Granted scopes.
    public var scope: String?
    /// A user object embedded in the token response.
    public var user: String?

    /// Creates the mapping; the defaults are RFC 6749's field names.
    public init(
        accessToken: String = "/access_token", refreshToken: String? = "/refresh_token",
        idToken: String? = "/id_token", tokenType: String? = "/token_type", expiresIn: String? = "/expires_in",
        expiresAt: String? = nil, scope: String? = "/scope", user: String? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.expiresAt = expiresAt
        self.scope = scope
        self.user = user
    }
}

/// Where the user's fields are in a user document (JSON pointers).
@_spi(Generated) public struct UserMapping: Sendable {
    /// The stable identifier.
    public var id: String
    /// The email address.
    public var email: String?
    /// The display name.
    public var name: String?
    /// A role.
    public var role: String?
    /// Granted scopes (a string separated by spaces, or an array).
    public var scopes: String?
    /// Where the parts of the name are (`/given_name`, `/family_name`): their non-empty values, joined by a
    /// space, are the name when ``name`` finds none.
    public var nameParts: [String]

    /// Creates the mapping; the defaults are OpenID Connect's claim names.
    public init(
        id: String = "/sub", email: String? = "/email", name: String? = "/name", role: String? = nil,
        scopes: String? = nil, nameParts: [String] = []
    ) {
        self.nameParts = nameParts
        self.id = id
        self.email = email
        self.name = name
        self.role = role
        self.scopes = scopes
    }
}
