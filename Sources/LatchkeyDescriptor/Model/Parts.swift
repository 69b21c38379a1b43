import LatchkeyVocabulary

extension Descriptor {
    /// A configuration input.
    public struct Input: Sendable, Hashable {
        /// The variable name.
        public var name: String
        /// `string` or `url`.
        public var type: InputKind
        /// What it is, for the generated documentation.
        public var summary: String?
        /// Whether the app must supply it.
        public var required: Bool
        /// The value used when the app gives none.
        public var defaultValue: String?
        /// Whether trailing slashes are trimmed.
        public var trimTrailingSlash: Bool
        /// The environment variable or Info.plist key that can supply it.
        public var environment: String?
        /// Values refused before any request.
        public var rejections: [Rejection]
        /// What every value must be (format version 2): `require`.
        public var requirement: InputRequirement? = nil
        /// Format version 2: the only values the input accepts (its wire strings); non-empty makes the
        /// generated initializer's argument a Swift enum with these raw values.
        public var values: [String] = []
    }

    /// A rule refusing an input value.
    public struct Rejection: Sendable, Hashable {
        /// Refuse values with this prefix.
        public var prefix: String?
        /// Refuse JWTs whose payload has this claim ...
        public var jwtClaim: String?
        /// ... equal to this.
        public var equals: String?
        /// The error code (default `secret_in_app`).
        public var code: String
        /// The message for developers.
        public var message: String
    }

    /// How endpoints are discovered.
    public enum Discovery: Sendable, Hashable {
        /// OpenID Connect discovery from an issuer; `documentURL` (format version 2) names the document when it
        /// is not at `{issuer}/.well-known/openid-configuration` (a lone variable without a value: the default).
        case openID(issuer: Template, documentURL: Template? = nil)
        /// A provider's own configuration request, with the members kept.
        case custom(request: String, members: [Named<String>])
    }

    /// One HTTP request.
    public struct Request: Sendable, Hashable {
        /// The method.
        public var method: String
        /// The URL template.
        public var url: Template
        /// Query parameters.
        public var query: [Named<Value>]
        /// Headers.
        public var headers: [Named<Value>]
        /// `none`, `form` or `json`.
        public var encoding: BodyEncoding
        /// Body members.
        public var body: [Named<Value>]
        /// `none`, `basic`, `post`, `basic_if_secret`, `post_if_secret` or `basic_secret_or_empty`.
        public var clientAuthentication: ClientAuthenticationMethod
        /// `none` or `accessToken`.
        public var authorization: RequestAuthorization
        /// `session`, `user`, `document`, `none`, `sessionOrUser` or `sessionOrDocument`.
        public var response: ResponseMeaning
        /// Error statuses treated as success.
        public var ignoreErrorStatuses: [Int]
        /// The `Authorization` scheme of `accessToken` requests (format version 2).
        public var authorizationScheme: String = "Bearer"
        /// This request's own session fields (format version 2), replacing the descriptor's.
        public var session: SessionFields? = nil
        /// How a `document` answer says which page it is (format version 2): `pagination`.
        public var pagination: Pagination? = nil
        /// Whether a JSON body whose members are all left out is not sent at all (format version 2):
        /// `omitEmptyBody`.
        public var omitsEmptyBody = false
    }

    /// The standard flows.
    public struct Flows: Sendable, Hashable {
        /// Password sign-in.
        public var password: Password?
        /// Authorization code with PKCE.
        public var authorizationCode: AuthorizationCode?
        /// Refresh.
        public var refresh: Refresh?
        /// Sign-out.
        public var signOut: SignOut?
        /// User info.
        public var userInfo: String?
        /// Device authorization grant.
        public var deviceCode: DeviceCode?
        /// Client credentials grant (server-side tools).
        public var clientCredentials: ClientCredentials?
        /// RP-initiated logout.
        public var endSession: EndSession?

        /// Password sign-in.
        public struct Password: Sendable, Hashable {
            /// The request.
            public var request: String
            /// The identifier's argument label.
            public var identifierLabel: String
        }

        /// Authorization code with PKCE.
        public struct AuthorizationCode: Sendable, Hashable {
            /// The authorization URL.
            public var authorizeURL: Template
            /// Its query parameters.
            public var query: [Named<Value>]
            /// The exchange request.
            public var exchange: String
            /// Whether a nonce is used.
            public var nonce: Bool
            /// Whether the callback returns state.
            public var returnsState: Bool
            /// Default scopes.
            public var scopes: [String]
            /// Scope separator.
            public var scopeSeparator: String
            /// Whether the user is fetched after the exchange.
            public var fetchUser: Bool
            /// Pending flow lifetime in seconds.
            public var pendingLifetime: Int
            /// Typed arguments of the generated `authorizationURL(…)` and `signInWithBrowser(…)`, each a
            /// variable the query names (Supabase's `provider`), in order (format version 2).
            public var parameters: [Named<Action.Parameter>] = []
        }

        /// Refresh.
        public struct Refresh: Sendable, Hashable {
            /// The request.
            public var request: String
            /// Provider codes meaning "already used".
            public var reuseCodes: [String]
        }

        /// Sign-out.
        public struct SignOut: Sendable, Hashable {
            /// The request, or nil for local sign-out.
            public var request: String?
            /// Scopes accepted.
            public var scopes: [String]
            /// The default scope.
            public var defaultScope: String?
            /// Scopes that end other sessions and keep this one.
            public var keepSessionScopes: [String]
        }

        /// Device authorization grant.
        public struct DeviceCode: Sendable, Hashable {
            /// The device authorization request.
            public var authorization: String
            /// The polled token request.
            public var token: String
        }
    }

    /// A provider-specific action.
    public struct Action: Sendable, Hashable {
        /// The request it sends.
        public var request: String
        /// What it does, for the documentation.
        public var summary: String?
        /// Its parameters, in order.
        public var parameters: [Named<Parameter>]
        /// The PKCE flow its emailed link completes, if any.
        public var pkce: LinkPKCE? = nil
        /// The generated method's base name when it differs from the action's (format version 2): actions
        /// that share one are overloads told apart by their argument labels.
        public var method: String? = nil
        /// The action group (typed sub-client) the method belongs to (format version 2).
        public var group: String? = nil
        /// The actions performed after this one, in order, each with values from the answer before it (format
        /// version 2); empty: none.
        public var then: [ActionFollowUp] = []
        /// The member of the answer (a JSON pointer into a `document` response) the action returns instead of
        /// the whole document (format version 2).
        public var returns: String? = nil
        /// An event published on the client's events after the action succeeds (`user_updated`; format
        /// version 2).
        public var event: String? = nil

        /// One action parameter.
        public struct Parameter: Sendable, Hashable {
            /// `string`, `bool`, `int`, `url` or `object`.
            public var type: ParameterType
            /// Whether it may be left out.
            public var optional: Bool
            /// Minimum length.
            public var minLength: Int?
            /// Allowed values.
            public var values: [String]
            /// What it is.
            public var summary: String?
        }
    }

    /// Error mappings.
    public struct Errors: Sendable, Hashable {
        /// Pointers for the provider code.
        public var codeFields: [String]
        /// Pointers for the message.
        public var messageFields: [String]
        /// Pointer marking an error in a 2xx body.
        public var errorInSuccessBody: String?
        /// Pointer holding the real status.
        public var statusField: String?
        /// Codes the descriptor declares beyond the built-in ones.
        public var codes: [Named<DeclaredCode>]
        /// Response rows.
        public var map: [Rule]
        /// Callback rows.
        public var callback: [Rule]
        /// Token verification failures (the runtime's reasons, such as `unknown_key`) mapped to codes.
        public var verification: [Named<String>] = []
        /// Provider codes meaning the server has ended the session: a request sent with the session's access
        /// token and refused with one of them forgets the session (format version 2).
        public var sessionEndedCodes: [String] = []
        /// Events published when the session ends for one of those codes, by code (`user_not_found` →
        /// `user_deleted`; format version 2).
        public var sessionEndedEvents: [Named<String>] = []

        /// A declared code.
        public struct DeclaredCode: Sendable, Hashable {
            /// Its kind.
            public var kind: ErrorKind
            /// What it means.
            public var summary: String?
        }

        /// A mapping row.
        public struct Rule: Sendable, Hashable {
            /// Provider code equality.
            public var providerCode: String?
            /// Provider code prefix.
            public var providerCodePrefix: String?
            /// HTTP status.
            public var status: Int?
            /// The stable code.
            public var code: String
            /// The names of the requests whose responses the row applies to (empty: every request).
            public var requests: [String] = []
            /// Values the error body must carry at JSON pointers (format version 2's `match`).
            public var match: [MemberMatch] = []
        }
    }

    /// Callback rules.
    public struct Callback: Sendable, Hashable {
        /// `query`, `fragment` or `query_or_fragment`.
        public var location: CallbackLocation
        /// Code parameter.
        public var code: String
        /// State parameter.
        public var state: String
        /// RFC 9207 issuer parameter.
        public var iss: String?
        /// Error parameter.
        public var error: String
        /// Provider error-code parameter.
        public var errorCode: String?
        /// Error description parameter.
        public var errorDescription: String
        /// Allowed redirect kinds.
        public var redirectKinds: [RedirectKind]
        /// A user document carried by the callback (format version 2).
        public var user: CallbackUser? = nil
        /// Sessions accepted in the fragment, if any.
        public var implicit: ImplicitSession? = nil
        /// The callback parameter holding the granted scopes (format version 2).
        public var scope: String? = nil
    }

    /// A user document a callback carries as one parameter (Apple's `user`).
    public struct CallbackUser: Sendable, Hashable {
        /// The parameter holding the JSON object.
        public var parameter: String
        /// Email pointer.
        public var email: String?
        /// Full-name pointer.
        public var name: String?
        /// Given-name pointer.
        public var givenName: String?
        /// Family-name pointer.
        public var familyName: String?
    }

    /// Session fields.
    public struct SessionFields: Sendable, Hashable {
        /// Pointers by field: accessToken, refreshToken, idToken, tokenType, expiresIn, expiresAt, scope, user.
        public var accessToken: String
        /// Refresh token pointer.
        public var refreshToken: String?
        /// ID token pointer.
        public var idToken: String?
        /// Token type pointer.
        public var tokenType: String?
        /// Relative lifetime pointer.
        public var expiresIn: String?
        /// Absolute expiry pointer.
        public var expiresAt: String?
        /// Scope pointer.
        public var scope: String?
        /// Embedded user pointer.
        public var user: String?
    }

    /// User fields.
    public struct UserFields: Sendable, Hashable {
        /// Identifier pointer.
        public var id: String
        /// Email pointer.
        public var email: String?
        /// Name pointer.
        public var name: String?
        /// Role pointer.
        public var role: String?
        /// Scopes pointer.
        public var scopes: String?
        /// Pointers whose non-empty values, joined by a space, make the name when `name` finds none (format
        /// version 2).
        public var nameParts: [String] = []
    }

    /// Token formats.
    public struct Tokens: Sendable, Hashable {
        /// `opaque`, `jwt` or `paseto_v4_public`.
        public var accessToken: TokenFormat
        /// Whether ID tokens are validated.
        public var validateIDToken: Bool
        /// JWKS URL.
        public var jwks: Template?
        /// Expected issuer.
        public var issuer: Template?
        /// The key set URL verifiable access tokens are checked against (a PASETO key document).
        public var accessTokenKeys: Template? = nil
        /// The `aud` a verified access token must carry (a template over the inputs).
        public var audience: Template? = nil
        /// The PASETO implicit assertion for every key-document entry (an entry's own is ignored).
        public var implicitAssertion: String? = nil
        /// `exact` or `tenant_placeholder` (format version 2).
        public var issuerValidation: IssuerValidation = .exact
        /// Members a verified access token's (JSON) footer must carry, with their exact values.
        public var footer: [Named<String>] = []
        /// Claims a verified access token must carry (present, not null, not empty).
        public var requiredClaims: [String] = []
        /// Claims a verified access token must carry with exactly these string values.
        public var claimValues: [Named<String>] = []
        /// Whether the user comes from the verified access token's claims (through `user`).
        public var userFromAccessToken: Bool = false
        /// Pointers at which a fetched user document must equal the verified access token's claims.
        public var userDocumentMustMatch: [String] = []
    }

    /// Client policy.
    public struct ClientPolicy: Sendable, Hashable {
        /// Pointer that is true for confidential clients.
        public var confidentialField: String?
        /// Pointer listing allowed redirect URIs (the first is the default redirect URI).
        public var allowedRedirectURIsField: String?
        /// Pointer listing the scopes the client may request (the default scopes).
        public var allowedScopesField: String? = nil
    }
}
