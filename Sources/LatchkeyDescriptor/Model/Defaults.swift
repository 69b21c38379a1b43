import LatchkeyVocabulary

extension Descriptor.Errors {
    /// OAuth 2.0 defaults: `error` and `error_description`, no rows.
    public init() {
        self.init(
            codeFields: ["/error"], messageFields: ["/error_description"], errorInSuccessBody: nil, statusField: nil,
            codes: [], map: [], callback: [])
    }
}

extension Descriptor.Callback {
    /// OAuth 2.0 defaults: query parameters `code`, `state`, `error`, `error_description`.
    public init() {
        self.init(
            location: .query, code: "code", state: "state", iss: nil, error: "error", errorCode: nil,
            errorDescription: "error_description", redirectKinds: RedirectKind.allCases)
    }
}

extension Descriptor.SessionFields {
    /// RFC 6749 token response fields.
    public init() {
        self.init(
            accessToken: "/access_token", refreshToken: "/refresh_token", idToken: "/id_token",
            tokenType: "/token_type", expiresIn: "/expires_in", expiresAt: nil, scope: "/scope", user: nil)
    }
}

extension Descriptor.UserFields {
    /// OpenID Connect claims.
    public init() {
        self.init(id: "/sub", email: "/email", name: "/name", role: nil, scopes: nil)
    }
}

extension Descriptor.Tokens {
    /// Opaque tokens, no ID token validation.
    public init() {
        self.init(accessToken: .opaque, validateIDToken: false, jwks: nil, issuer: nil)
    }
}
