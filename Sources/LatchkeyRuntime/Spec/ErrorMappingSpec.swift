/// How a provider's error responses and callback errors map onto stable ``AuthError/Code``s.
public struct ErrorMappingSpec: Sendable, Hashable {
    /// One mapping row. A row matches when every condition it states holds; the first match wins.
    public struct Rule: Sendable, Hashable {
        /// The provider code equals this.
        public var providerCode: String?
        /// The provider code starts with this.
        public var providerCodePrefix: String?
        /// The HTTP status equals this.
        public var status: Int?
        /// The stable code it yields.
        public var code: String
        /// The kind of that code.
        public var kind: AuthError.Kind

        /// Creates a rule.
        public init(
            providerCode: String? = nil, providerCodePrefix: String? = nil, status: Int? = nil, code: String,
            kind: AuthError.Kind
        ) {
            self.providerCode = providerCode
            self.providerCodePrefix = providerCodePrefix
            self.status = status
            self.code = code
            self.kind = kind
        }

        /// Whether the row matches.
        public func matches(providerCode candidate: String?, status candidateStatus: Int?) -> Bool {
            if let providerCode, providerCode != candidate { return false }
            if let providerCodePrefix, !(candidate?.hasPrefix(providerCodePrefix) ?? false) { return false }
            if let status, status != candidateStatus { return false }
            return providerCode != nil || providerCodePrefix != nil || status != nil
        }
    }

    /// JSON pointers tried in order for the provider's error code (first string or integer wins).
    public var codePointers: [String]
    /// JSON pointers tried in order for the message.
    public var messagePointers: [String]
    /// A pointer whose presence in a 2xx body means the body is an error (non-null, non-zero, non-empty).
    public var successBodyErrorPointer: String?
    /// A pointer in an error body that holds the real HTTP status (for providers that answer errors with 200).
    public var statusPointer: String?
    /// Rows for HTTP responses, first match wins.
    public var rules: [Rule]
    /// Rows for callback `error` parameters, first match wins.
    public var callbackRules: [Rule]

    /// Creates an error mapping.
    public init(
        codePointers: [String] = ["/error"], messagePointers: [String] = ["/error_description"],
        successBodyErrorPointer: String? = nil, statusPointer: String? = nil, rules: [Rule] = [],
        callbackRules: [Rule] = []
    ) {
        self.codePointers = codePointers
        self.messagePointers = messagePointers
        self.successBodyErrorPointer = successBodyErrorPointer
        self.statusPointer = statusPointer
        self.rules = rules
        self.callbackRules = callbackRules
    }
}
