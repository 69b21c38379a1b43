import LatchkeyVocabulary

/// How the provider sends the browser back to the app, and which redirect URIs it accepts.
@_spi(Generated) public struct CallbackSpec: Sendable {
    /// Where callback parameters are.
    public typealias Location = CallbackLocation

    /// Kinds of redirect URI a provider accepts.
    public typealias RedirectKind = LatchkeyVocabulary.RedirectKind

    /// Where the parameters are.
    public var location: Location
    /// The parameter with the authorization code.
    public var codeParameter: String
    /// The parameter with the state.
    public var stateParameter: String
    /// The RFC 9207 issuer parameter, when the provider sends one.
    public var issuerParameter: String?
    /// The parameter with the OAuth error.
    public var errorParameter: String
    /// The parameter with a provider-specific error code (`error_code`), if any.
    public var errorCodeParameter: String?
    /// The parameter with the error description.
    public var errorDescriptionParameter: String
    /// The redirect URI kinds the provider accepts.
    public var allowedRedirectKinds: [RedirectKind]
    /// Sessions accepted in a callback's fragment, and on which redirect URIs; `nil` when none is.
    public var implicitSession: ImplicitSessionSpec?
    /// A user document the callback carries (Apple's first-sign-in `user` member), used only to fill in
    /// the name and email an ID token lacks; `nil` when the callback carries none.
    public var user: CallbackUserSpec?
    /// The callback parameter holding the granted scopes (Strava's `scope`), which becomes the session's
    /// ``Session/scope`` when the token response carries none.
    public var scopeParameter: String?

    /// Creates the spec.
    public init(
        location: Location = .query, codeParameter: String = "code", stateParameter: String = "state",
        issuerParameter: String? = nil, errorParameter: String = "error", errorCodeParameter: String? = nil,
        errorDescriptionParameter: String = "error_description",
        allowedRedirectKinds: [RedirectKind] = RedirectKind.allCases, implicitSession: ImplicitSessionSpec? = nil,
        user: CallbackUserSpec? = nil, scopeParameter: String? = nil
    ) {
        self.scopeParameter = scopeParameter
        self.location = location
        self.codeParameter = codeParameter
        self.stateParameter = stateParameter
        self.issuerParameter = issuerParameter
        self.errorParameter = errorParameter
        self.errorCodeParameter = errorCodeParameter
        self.errorDescriptionParameter = errorDescriptionParameter
        self.allowedRedirectKinds = allowedRedirectKinds
        self.implicitSession = implicitSession
        self.user = user
    }
}
