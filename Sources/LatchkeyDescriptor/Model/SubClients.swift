extension Descriptor {
    /// A named group of actions that the generated client exposes as a typed sub-client
    /// (`client.mfa.enroll(...)`): `actionGroups.NAME` (format version 2).
    public struct ActionGroup: Sendable, Hashable {
        /// The sub-client's Swift type name, nested in the client (`MFA` gives `SupabaseClient.MFA`).
        public var swiftName: String
        /// What the group does, for the generated documentation.
        public var summary: String?
    }

    /// One step of an action's `then`: the action performed next, with values read from the answer before it
    /// (a challenge's `id` becomes the verification's `challengeId`), after a passkey ceremony when it declares
    /// one.
    public struct ActionFollowUp: Sendable, Hashable {
        /// The action performed next.
        public var action: String
        /// The follow-up's arguments read from the answer before it: parameter name → JSON pointer.
        public var arguments: [Named<String>]
        /// The WebAuthn ceremony run between the answer before it and this action (format version 2).
        public var ceremony: Ceremony? = nil
    }

    /// A step's `ceremony`: a WebAuthn ceremony whose options are in the answer before the step and whose
    /// credential JSON becomes one of the step's arguments.
    public struct Ceremony: Sendable, Hashable {
        /// `registration` (a new passkey) or `assertion` (a signature with one).
        public var kind: Kind
        /// Where the answer before the step holds the W3C options.
        public var options: String
        /// The step action's parameter (type `object`) that receives the credential.
        public var credential: String

        /// The kinds of ceremony.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// `navigator.credentials.create`.
            case registration
            /// `navigator.credentials.get`.
            case assertion
        }
    }

    /// `accessTokenClaims`: how the client verifies an access token's claims (format version 2).
    public struct AccessTokenClaims: Sendable, Hashable {
        /// The request (response `document`) that fetches the JWKS of the asymmetric signing keys.
        public var keys: String
        /// The signature algorithms accepted (never `none` or HMAC).
        public var algorithms: [String]
        /// The `iss` a verified token must carry, if checked.
        public var issuer: Template?
        /// The request (response `user`, sent with `{jwt}`) that asks the server when no published key
        /// verifies the token (a symmetric HS256 project, or a `kid` the JWKS lacks).
        public var fallback: String?
        /// How the authenticator assurance level is read from the verified claims, if the client offers it.
        public var assurance: Assurance?
    }

    /// `accessTokenClaims.assurance`: the assurance level read from a verified access token.
    public struct Assurance: Sendable, Hashable {
        /// The action group whose sub-client gets the method (none: the client itself).
        public var group: String?
        /// The claim holding the current level (`aal`).
        public var levelClaim: String
        /// The claim listing the authentication methods used (`amr`).
        public var methodsClaim: String?
        /// Where the user document lists the enrolled factors (`/factors`).
        public var factors: String?
        /// Where a factor names its status (`/status`).
        public var factorStatus: String
        /// The status of a verified factor (`verified`).
        public var verifiedStatus: String
        /// The level a user with a verified factor can reach (`aal2`).
        public var elevatedLevel: String
    }
}
