import LatchkeyVocabulary

/// A configuration input a provider needs from the app: a project URL, a client id, a tenant, a key.
@_spi(Generated) public struct InputSpec: Sendable {
    /// The type of an input.
    public typealias Kind = InputKind

    /// A rule that refuses a value which must never ship in an app (a secret key, say).
    public struct Rejection: Sendable {
        /// What the rule looks at.
        public enum Test: Sendable {
            /// The value starts with this prefix.
            case prefix(String)
            /// The value is a JWT whose payload claim has this string value.
            case jwtClaim(name: String, equals: String)
        }

        /// The test.
        public var test: Test
        /// The error code to throw (`secret_in_app` by default).
        public var code: String
        /// The message for developers.
        public var message: String

        /// Creates a rule.
        public init(test: Test, code: String = "secret_in_app", message: String) {
            self.test = test
            self.code = code
            self.message = message
        }
    }

    /// The variable name, as used in templates (`{projectURL}`).
    public var name: String
    /// The type.
    public var kind: Kind
    /// Whether the app must supply it (otherwise ``defaultValue`` or absent).
    public var isRequired: Bool
    /// The value used when the app gives none.
    public var defaultValue: String?
    /// Whether trailing `/` characters are removed from the value.
    public var trimsTrailingSlash: Bool
    /// Values that are refused before any request is sent.
    public var rejections: [Rejection]
    /// The environment variable (Linux) or Info.plist key (Apple) that can supply the value.
    public var environmentKey: String?
    /// What every value must be (a server-side client's secret key, say); `nil` accepts any value.
    public var requirement: Requirement?
    /// The only values accepted (a descriptor input's `values`); empty for any. The generated initializer
    /// takes an enum of them, and a value from the environment or Info.plist outside them is refused.
    public var allowedValues: [String] = []

    /// Creates an input spec.
    public init(
        name: String, kind: Kind = .string, isRequired: Bool = true, defaultValue: String? = nil,
        trimsTrailingSlash: Bool = false, rejections: [Rejection] = [], environmentKey: String? = nil,
        requirement: Requirement? = nil,
        allowedValues: [String] = []
    ) {
        self.allowedValues = allowedValues
        self.name = name
        self.kind = kind
        self.isRequired = isRequired
        self.defaultValue = defaultValue
        self.trimsTrailingSlash = trimsTrailingSlash
        self.rejections = rejections
        self.environmentKey = environmentKey
        self.requirement = requirement
    }
}
