/// The error codes every provider shares, each with its kind and meaning: the documented table.
///
/// A descriptor may declare codes of its own (with their kind) beside these. New codes may be added;
/// existing ones never change meaning. The declaration order is the documented order.
public enum BuiltInErrorCode: String, VocabularyTerm {
    /// The user cancelled or denied the sign-in.
    case loginCancelled = "login_cancelled"
    /// The email, username or password is wrong.
    case invalidCredentials = "invalid_credentials"
    /// The account exists but its email address is not confirmed yet.
    case emailNotConfirmed = "email_not_confirmed"
    /// An account with that identifier exists already.
    case userAlreadyExists = "user_already_exists"
    /// The account is banned or disabled.
    case userBanned = "user_banned"
    /// The new password does not meet the provider's rules.
    case weakPassword = "weak_password"
    /// The session is over (refresh token expired, revoked or reused).
    case sessionExpired = "session_expired"
    /// There is no session: sign in first.
    case sessionMissing = "session_missing"
    /// The provider rejected the grant (code, refresh token or verifier).
    case invalidGrant = "invalid_grant"
    /// The PKCE verifier does not match the challenge.
    case badCodeVerifier = "bad_code_verifier"
    /// The browser sign-in took too long; start again.
    case flowStateExpired = "flow_state_expired"
    /// The provider does not know this sign-in attempt; start again.
    case flowStateNotFound = "flow_state_not_found"
    /// The one-time code or link has expired or is invalid.
    case otpExpired = "otp_expired"
    /// The callback's state does not match the pending sign-in.
    case stateMismatch = "state_mismatch"
    /// The callback or document names another issuer.
    case issuerMismatch = "issuer_mismatch"
    /// The callback URL is not the registered redirect URI.
    case redirectMismatch = "redirect_mismatch"
    /// The callback URL is malformed or has no pending sign-in.
    case invalidCallback = "invalid_callback"
    /// The ID token failed signature or claim validation.
    case invalidIDToken = "invalid_id_token"
    /// An access token failed signature or claim validation.
    case invalidToken = "invalid_token"
    /// The provider's response breaks the protocol.
    case invalidResponse = "invalid_response"
    /// The provider could not be reached or the connection failed.
    case networkError = "network_error"
    /// The provider did not answer in time.
    case timeout
    /// The provider failed (HTTP 5xx); retry later.
    case serverError = "server_error"
    /// Too many requests; retry after the indicated delay.
    case rateLimited = "rate_limited"
    /// The endpoint answered with a redirect, which is never followed.
    case redirectRefused = "redirect_refused"
    /// The response exceeded the size limit.
    case responseTooLarge = "response_too_large"
    /// The session store is locked or unreadable; this is not signed out.
    case storeUnavailable = "store_unavailable"
    /// The session could not be written to the store.
    case storeFailed = "store_failed"
    /// The provider's configuration could not be discovered.
    case configDiscoveryFailed = "config_discovery_failed"
    /// A confidential client cannot be used in an app.
    case confidentialClientInMobile = "confidential_client_in_mobile"
    /// A secret key was given where only a public key may ship.
    case secretInApp = "secret_in_app"
    /// The client configuration is invalid.
    case invalidConfiguration = "invalid_configuration"
    /// The provider does not accept this client.
    case invalidClient = "invalid_client"
    /// The client may not use this grant.
    case unauthorizedClient = "unauthorized_client"
    /// The provider does not support this grant.
    case unsupportedGrantType = "unsupported_grant_type"
    /// A requested scope is not allowed.
    case invalidScope = "invalid_scope"
    /// The browser sign-in could not be started.
    case webAuthStartFailed = "web_auth_start_failed"
    /// The provider rejected the request's parameters.
    case validationFailed = "validation_failed"
    /// The request is malformed.
    case invalidRequest = "invalid_request"
    /// Device flow: the user has not approved yet.
    case authorizationPending = "authorization_pending"
    /// Device flow: poll less often.
    case slowDown = "slow_down"
    /// Device flow: the device code expired.
    case expiredToken = "expired_token"
    /// The user or provider denied access.
    case accessDenied = "access_denied"
    /// Multi-factor verification is required.
    case mfaRequired = "mfa_required"
    /// The sign-in method is disabled at the provider.
    case providerDisabled = "provider_disabled"
    /// The server refused the request's DPoP proof.
    case invalidDPoPProof = "invalid_dpop_proof"
    /// The server still asked for a DPoP nonce after the one retry with its nonce.
    case useDPoPNonce = "use_dpop_nonce"
    /// A token response's `token_type` does not match the DPoP binding asked for.
    case dpopBindingMismatch = "dpop_binding_mismatch"
    /// The provider returned an error Latchkey has no mapping for.
    case unknown

    /// What an app should do when it sees this code (one row per code, as `scripts/docs.sh` reads them).
    public var kind: ErrorKind {
        switch self {
        case .loginCancelled: .cancelled
        case .invalidCredentials: .rejected
        case .emailNotConfirmed: .rejected
        case .userAlreadyExists: .invalidInput
        case .userBanned: .rejected
        case .weakPassword: .invalidInput
        case .sessionExpired: .rejected
        case .sessionMissing: .rejected
        case .invalidGrant: .rejected
        case .badCodeVerifier: .rejected
        case .flowStateExpired: .rejected
        case .flowStateNotFound: .rejected
        case .otpExpired: .rejected
        case .stateMismatch: .invalidResponse
        case .issuerMismatch: .invalidResponse
        case .redirectMismatch: .invalidResponse
        case .invalidCallback: .invalidResponse
        case .invalidIDToken: .invalidResponse
        case .invalidToken: .invalidResponse
        case .invalidResponse: .invalidResponse
        case .networkError: .transport
        case .timeout: .transport
        case .serverError: .transport
        case .rateLimited: .transport
        case .redirectRefused: .misconfigured
        case .responseTooLarge: .transport
        case .storeUnavailable: .transport
        case .storeFailed: .transport
        case .configDiscoveryFailed: .misconfigured
        case .confidentialClientInMobile: .misconfigured
        case .secretInApp: .misconfigured
        case .invalidConfiguration: .misconfigured
        case .invalidClient: .misconfigured
        case .unauthorizedClient: .misconfigured
        case .unsupportedGrantType: .misconfigured
        case .invalidScope: .misconfigured
        case .webAuthStartFailed: .misconfigured
        case .validationFailed: .invalidInput
        case .invalidRequest: .invalidInput
        case .authorizationPending: .transport
        case .slowDown: .transport
        case .expiredToken: .rejected
        case .accessDenied: .cancelled
        case .mfaRequired: .rejected
        case .providerDisabled: .misconfigured
        case .invalidDPoPProof: .invalidResponse
        case .useDPoPNonce: .transport
        case .dpopBindingMismatch: .misconfigured
        case .unknown: .invalidResponse
        }
    }

    /// What the code means, in one sentence for developers.
    public var meaning: String {
        switch self {
        case .loginCancelled: "The user cancelled or denied the sign-in."
        case .invalidCredentials: "The email, username or password is wrong."
        case .emailNotConfirmed: "The account exists but its email address is not confirmed yet."
        case .userAlreadyExists: "An account with that identifier exists already."
        case .userBanned: "The account is banned or disabled."
        case .weakPassword: "The new password does not meet the provider's rules."
        case .sessionExpired: "The session is over (refresh token expired, revoked or reused)."
        case .sessionMissing: "There is no session: sign in first."
        case .invalidGrant: "The provider rejected the grant (code, refresh token or verifier)."
        case .badCodeVerifier: "The PKCE verifier does not match the challenge."
        case .flowStateExpired: "The browser sign-in took too long; start again."
        case .flowStateNotFound: "The provider does not know this sign-in attempt; start again."
        case .otpExpired: "The one-time code or link has expired or is invalid."
        case .stateMismatch: "The callback's state does not match the pending sign-in."
        case .issuerMismatch: "The callback or document names another issuer."
        case .redirectMismatch: "The callback URL is not the registered redirect URI."
        case .invalidCallback: "The callback URL is malformed or has no pending sign-in."
        case .invalidIDToken: "The ID token failed signature or claim validation."
        case .invalidToken: "An access token failed signature or claim validation."
        case .invalidResponse: "The provider's response breaks the protocol."
        case .networkError: "The provider could not be reached or the connection failed."
        case .timeout: "The provider did not answer in time."
        case .serverError: "The provider failed (HTTP 5xx); retry later."
        case .rateLimited: "Too many requests; retry after the indicated delay."
        case .redirectRefused: "The endpoint answered with a redirect, which is never followed."
        case .responseTooLarge: "The response exceeded the size limit."
        case .storeUnavailable: "The session store is locked or unreadable; this is not signed out."
        case .storeFailed: "The session could not be written to the store."
        case .configDiscoveryFailed: "The provider's configuration could not be discovered."
        case .confidentialClientInMobile: "A confidential client cannot be used in an app."
        case .secretInApp: "A secret key was given where only a public key may ship."
        case .invalidConfiguration: "The client configuration is invalid."
        case .invalidClient: "The provider does not accept this client."
        case .unauthorizedClient: "The client may not use this grant."
        case .unsupportedGrantType: "The provider does not support this grant."
        case .invalidScope: "A requested scope is not allowed."
        case .webAuthStartFailed: "The browser sign-in could not be started."
        case .validationFailed: "The provider rejected the request's parameters."
        case .invalidRequest: "The request is malformed."
        case .authorizationPending: "Device flow: the user has not approved yet."
        case .slowDown: "Device flow: poll less often."
        case .expiredToken: "Device flow: the device code expired."
        case .accessDenied: "The user or provider denied access."
        case .mfaRequired: "Multi-factor verification is required."
        case .providerDisabled: "The sign-in method is disabled at the provider."
        case .invalidDPoPProof: "The server refused the request's DPoP proof."
        case .useDPoPNonce: "The server still asked for a DPoP nonce after the one retry with its nonce."
        case .dpopBindingMismatch: "A token response's token_type does not match the DPoP binding asked for."
        case .unknown: "The provider returned an error Latchkey has no mapping for."
        }
    }
}
