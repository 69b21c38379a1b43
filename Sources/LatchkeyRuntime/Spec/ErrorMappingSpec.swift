import LatchkeyTokens
import LatchkeyVocabulary

/// How a provider's error responses and callback errors map onto stable ``AuthError/Code``s.
@_spi(Generated) public struct ErrorMappingSpec: Sendable {
    /// One mapping row. A row matches when every condition it states holds; the first match wins.
    public struct Rule: Sendable {
        /// The provider code equals this.
        public var providerCode: String?
        /// The provider code starts with this.
        public var providerCodePrefix: String?
        /// The HTTP status equals this.
        public var status: Int?
        /// The response answers one of these requests (by name in ``ProviderSpec/requests``); empty for any.
        public var requests: [String]
        /// Values the error body carries at JSON pointers (in a callback row: callback parameters); empty for
        /// none.
        public var match: [MemberCondition]
        /// The stable code it yields.
        public var code: String
        /// The kind of that code.
        public var kind: AuthError.Kind

        /// Creates a rule.
        /// - Parameters:
        ///   - providerCode: The provider code it matches.
        ///   - providerCodePrefix: The provider code prefix it matches.
        ///   - status: The HTTP status it matches.
        ///   - requests: The names of the requests whose responses it applies to (empty: any request).
        ///   - match: Values the error body must carry at JSON pointers.
        ///   - code: The stable code.
        ///   - kind: The code's kind.
        public init(
            providerCode: String? = nil, providerCodePrefix: String? = nil, status: Int? = nil,
            requests: [String] = [], match: [MemberCondition] = [], code: String, kind: AuthError.Kind
        ) {
            self.providerCode = providerCode
            self.providerCodePrefix = providerCodePrefix
            self.status = status
            self.requests = requests
            self.match = match
            self.code = code
            self.kind = kind
        }

        /// Whether the row matches a response to no named request (a row naming requests never does).
        public func matches(providerCode candidate: String?, status candidateStatus: Int?) -> Bool {
            matches(providerCode: candidate, status: candidateStatus, request: nil)
        }

        /// Whether the row matches.
        /// - Parameters:
        ///   - candidate: The provider's code.
        ///   - candidateStatus: The HTTP status.
        ///   - request: The name of the request the response answers, when known.
        ///   - member: The text at a JSON pointer of the error body (or the callback parameter a one-segment
        ///     pointer names), for the row's ``match``; none by default, so a row with `match` conditions
        ///     then never matches.
        /// - Returns: Whether every condition the row states holds (and it states one).
        public func matches(
            providerCode candidate: String?, status candidateStatus: Int?, request: String?,
            member: (String) -> String? = { _ in nil }
        ) -> Bool {
            if let providerCode, providerCode != candidate { return false }
            if let providerCodePrefix, !(candidate?.hasPrefix(providerCodePrefix) ?? false) { return false }
            if let status, status != candidateStatus { return false }
            if !requests.isEmpty, !(request.map(requests.contains) ?? false) { return false }
            if !membersMatch(member) { return false }
            return providerCode != nil || providerCodePrefix != nil || status != nil || !requests.isEmpty
                || !match.isEmpty
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
    /// Provider codes meaning the server has ended the session (GoTrue's `session_not_found`): a request sent
    /// with the current session's access token and refused with one of them forgets the session.
    public var sessionEndedCodes: [String] = []
    /// Events published when the session ends for one of ``sessionEndedCodes``, by provider code
    /// (GoTrue's `user_not_found` → `user_deleted`).
    public var sessionEndedEvents: [String: String] = [:]
    /// Rows for token verification failures: a row's ``Rule/providerCode`` is a
    /// ``TokenVerificationFailure`` raw value (`unknown_key`), and a failure it matches carries its code.
    public var verificationRules: [Rule]

    /// Creates an error mapping.
    /// - Parameters:
    ///   - codePointers: Where the provider's code is.
    ///   - messagePointers: Where the message is.
    ///   - successBodyErrorPointer: What marks an error in a 2xx body.
    ///   - statusPointer: Where an error body holds the real status.
    ///   - rules: Rows for HTTP responses.
    ///   - callbackRules: Rows for callback errors.
    ///   - verificationRules: Rows for token verification failures.
    ///   - sessionEndedCodes: Provider codes meaning the server has ended the session.
    ///   - sessionEndedEvents: Events published when the session ends for one of them, by code.
    public init(
        codePointers: [String] = ["/error"], messagePointers: [String] = ["/error_description"],
        successBodyErrorPointer: String? = nil, statusPointer: String? = nil, rules: [Rule] = [],
        callbackRules: [Rule] = [], verificationRules: [Rule] = [], sessionEndedCodes: [String] = [],
        sessionEndedEvents: [String: String] = [:]
    ) {
        self.sessionEndedCodes = sessionEndedCodes
        self.sessionEndedEvents = sessionEndedEvents
        self.codePointers = codePointers
        self.messagePointers = messagePointers
        self.successBodyErrorPointer = successBodyErrorPointer
        self.statusPointer = statusPointer
        self.rules = rules
        self.callbackRules = callbackRules
        self.verificationRules = verificationRules
    }

    /// A token verification failure with the code the descriptor maps its reason to, or unchanged.
    /// - Parameter error: The failure.
    /// - Returns: The error with the mapped code (the built-in code's message and status kept).
    public func mappingVerificationFailure(_ error: AuthError) -> AuthError {
        guard let reason = error.verificationFailure,
            let rule = verificationRules.first(where: { $0.matches(providerCode: reason.rawValue, status: nil) })
        else { return error }
        var mapped = error
        mapped.code = AuthError.Code(rule.code, kind: rule.kind)
        return mapped
    }
}
