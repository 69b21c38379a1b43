import LatchkeyVocabulary

/// A provider descriptor, decoded and validated: the input of the generator.
///
/// Field names follow the JSON keys of format version 1 (see `Descriptors/descriptor.schema.json`).
/// Collections that are JSON objects keep their source order, which matters for query parameters
/// and is what reviewers read; the generator sorts where order carries no meaning.
public struct Descriptor: Sendable, Hashable {
    /// The descriptor format this file uses.
    public var formatVersion: Int
    /// The provider's name: lower case words joined by hyphens (`base-idp`).
    public var name: String
    /// The Swift name the client type is built from (`BaseIdP` gives `BaseIdPClient`).
    public var swiftName: String
    /// The name shown to people.
    public var displayName: String
    /// What the provider is, for the generated documentation.
    public var summary: String?
    /// The provider's documentation.
    public var documentation: String?
    /// Where the descriptor's facts come from.
    public var sources: [String]
    /// Configuration inputs, in order.
    public var inputs: [Input]
    /// Derived variables, in order.
    public var variables: [Named<Template>]
    /// Discovery, if any.
    public var discovery: Discovery?
    /// Headers sent with every request.
    public var headers: [Named<Value>]
    /// Constant parameters sent with every token request.
    public var tokenParameters: [Named<Value>]
    /// Requests, in source order.
    public var requests: [Named<Request>]
    /// Flows.
    public var flows: Flows
    /// Actions, in source order.
    public var actions: [Named<Action>]
    /// Error mappings.
    public var errors: Errors
    /// Callback rules.
    public var callback: Callback
    /// Session fields in token responses.
    public var session: SessionFields
    /// User fields in user documents.
    public var user: UserFields
    /// Token formats.
    public var tokens: Tokens
    /// Client policy.
    public var clientPolicy: ClientPolicy
    /// The vendor-SDK surface the descriptor declares, if any.
    public var vendorSDK: VendorSDK? = nil
    /// Whether the client needs a secret supplied at run time (format version 2).
    public var clientSecret: ClientSecret? = nil
    /// Values read from responses and kept with the session (format version 2), in source order.
    public var captures: [Named<Capture>] = []
    /// Whether tokens are bound to a DPoP key (RFC 9449): `dpop`.
    public var dpop: DPoPUse = .never
    /// The pushed authorization request endpoint (RFC 9126) and when it is used: `pushedAuthorization`.
    public var pushedAuthorization: PushedAuthorization?
    /// Typed sub-clients that group actions (format version 2), in source order.
    public var actionGroups: [Named<ActionGroup>] = []
    /// How access-token claims are verified (format version 2), if the client offers it.
    public var accessTokenClaims: AccessTokenClaims? = nil
    /// Where the generated client may run (format version 2): `audience`, `app` by default.
    public var audience: ClientAudience = .app

    /// A descriptor's `pushedAuthorization`.
    public struct PushedAuthorization: Sendable, Hashable {
        /// The endpoint (default `{discovered.pushed_authorization_request_endpoint}`).
        public var url: Template
        /// When a browser sign-in pushes its request.
        public var use: PushedAuthorizationUse
    }
}

/// A value with the name it has in the descriptor.
public struct Named<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The name (a JSON object key).
    public var name: String
    /// The value.
    public var value: Value

    /// Creates a named value.
    public init(_ name: String, _ value: Value) {
        self.name = name
        self.value = value
    }
}
