import LatchkeyVocabulary

extension AuthError {
    /// A stable error code. New codes may be added; existing ones never change meaning.
    ///
    /// Codes are strings so that descriptors can name them and logs stay readable. A descriptor may
    /// declare codes of its own (with their kind); ``AuthError/Code/kind`` falls back to the kind the
    /// descriptor declared through ``AuthError/Code/init(_:kind:)``.
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The code as a string, for example `session_expired`.
        public let rawValue: String
        /// What an app should do when it sees this code.
        public let kind: Kind

        /// Creates a code with the kind of the built-in code of that name, or `invalid_response` when
        /// the name is not built in.
        public init(rawValue: String) {
            self.rawValue = rawValue
            self.kind = Code.builtInKinds[rawValue] ?? .invalidResponse
        }

        /// Creates a code with an explicit kind (for codes a descriptor declares).
        /// - Parameters:
        ///   - rawValue: The code.
        ///   - kind: What an app should do.
        public init(_ rawValue: String, kind: Kind) {
            self.rawValue = rawValue
            self.kind = kind
        }

        /// Creates a built-in code from a literal.
        public init(stringLiteral value: String) {
            self.init(rawValue: value)
        }

        /// The code as a string.
        public var description: String { rawValue }

        /// Codes are equal when their strings are; the kind follows from the code.
        public static func == (lhs: Code, rhs: Code) -> Bool { lhs.rawValue == rhs.rawValue }

        /// Hashes the code's string.
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    }
}

extension AuthError.Code {
    /// Every built-in code with its kind: the documented table.
    public static let builtIn: [(code: String, kind: AuthError.Kind, meaning: String)] = BuiltInErrorCode.allCases.map {
        ($0.rawValue, $0.kind, $0.meaning)
    }

    package static let builtInKinds: [String: AuthError.Kind] = Dictionary(
        uniqueKeysWithValues: builtIn.map { ($0.code, $0.kind) })

    /// The user cancelled or denied the sign-in.
    public static let loginCancelled: Self = "login_cancelled"
    /// The credentials are wrong.
    public static let invalidCredentials: Self = "invalid_credentials"
    /// The session is over.
    public static let sessionExpired: Self = "session_expired"
    /// There is no session.
    public static let sessionMissing: Self = "session_missing"
    /// The provider rejected the grant.
    public static let invalidGrant: Self = "invalid_grant"
    /// The callback's state does not match.
    public static let stateMismatch: Self = "state_mismatch"
    /// The issuer does not match.
    public static let issuerMismatch: Self = "issuer_mismatch"
    /// The callback URL is not the registered redirect URI.
    public static let redirectMismatch: Self = "redirect_mismatch"
    /// The callback URL is malformed or unexpected.
    public static let invalidCallback: Self = "invalid_callback"
    /// The ID token failed validation.
    public static let invalidIDToken: Self = "invalid_id_token"
    /// An access token failed validation.
    public static let invalidToken: Self = "invalid_token"
    /// The response breaks the protocol.
    public static let invalidResponse: Self = "invalid_response"
    /// The network failed.
    public static let networkError: Self = "network_error"
    /// The provider did not answer in time.
    public static let timeout: Self = "timeout"
    /// The provider failed with HTTP 5xx.
    public static let serverError: Self = "server_error"
    /// Too many requests.
    public static let rateLimited: Self = "rate_limited"
    /// A redirect was refused.
    public static let redirectRefused: Self = "redirect_refused"
    /// The response exceeded the size limit.
    public static let responseTooLarge: Self = "response_too_large"
    /// The store is locked or unreadable.
    public static let storeUnavailable: Self = "store_unavailable"
    /// The store could not be written.
    public static let storeFailed: Self = "store_failed"
    /// Discovery failed.
    public static let configDiscoveryFailed: Self = "config_discovery_failed"
    /// A confidential client was configured in an app.
    public static let confidentialClientInMobile: Self = "confidential_client_in_mobile"
    /// A secret key was configured in an app.
    public static let secretInApp: Self = "secret_in_app"
    /// The configuration is invalid.
    public static let invalidConfiguration: Self = "invalid_configuration"
    /// The browser could not be started.
    public static let webAuthStartFailed: Self = "web_auth_start_failed"
    /// The input is invalid.
    public static let validationFailed: Self = "validation_failed"
    /// The request is malformed (a header that would break the request, for example); nothing was sent.
    public static let invalidRequest: Self = "invalid_request"
    /// Device flow: not approved yet.
    public static let authorizationPending: Self = "authorization_pending"
    /// Device flow: poll less often.
    public static let slowDown: Self = "slow_down"
    /// Device flow: expired.
    public static let expiredToken: Self = "expired_token"
    /// The server refused a request's DPoP proof (RFC 9449 `invalid_dpop_proof`).
    public static let invalidDPoPProof: Self = "invalid_dpop_proof"
    /// The server still asked for a DPoP nonce after the one retry with its nonce.
    public static let useDPoPNonce: Self = "use_dpop_nonce"
    /// A token response's `token_type` does not match the DPoP binding asked for: `DPoP` without a proof, or
    /// `Bearer` when the descriptor requires DPoP.
    public static let dpopBindingMismatch: Self = "dpop_binding_mismatch"
    /// An unmapped provider error.
    public static let unknown: Self = "unknown"
}
