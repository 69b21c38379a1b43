import LatchkeyTokens

/// The device authorization grant (RFC 8628) as a unit: the two requests it sends, and what each failed poll
/// means for the polling (``DevicePollOutcome``) and its interval.
struct DeviceCodeGrant: Sendable {
    /// The flow.
    let flow: DeviceCodeFlowSpec

    /// The device authorization request (RFC 8628 §3.1) for a scope (`nil`: none sent). It carries no DPoP
    /// proof: RFC 9449 defines none for this endpoint.
    func authorizationRequest(scope: String?) -> GrantRequest {
        GrantRequest(
            name: flow.authorizationRequest, variables: ["scope": scope.map(JSON.string)], isTokenRequest: false)
    }

    /// The token poll (RFC 8628 §3.4) for a device code: a token request.
    func tokenRequest(deviceCode: String) -> GrantRequest {
        GrantRequest(name: flow.tokenRequest, variables: ["device_code": .string(deviceCode)], isTokenRequest: true)
    }

    /// The polling interval after a failed poll, never above ``DeviceAuthorization/maximumInterval``:
    /// `slow_down` adds ``DeviceAuthorization/slowDownStep`` seconds, a failure on the way or at the provider
    /// doubles it; anything else keeps it.
    static func interval(after outcome: DevicePollOutcome, current: Int) -> Int {
        switch outcome {
        case .slowDown: min(current + DeviceAuthorization.slowDownStep, DeviceAuthorization.maximumInterval)
        case .backOff: min(current * 2, DeviceAuthorization.maximumInterval)
        case .pending, .expired, .denied, .failed: current
        }
    }
}

/// What a failed device token request means for the polling loop (RFC 8628 §3.5).
enum DevicePollOutcome {
    /// `backOff`: the request failed on the way or at the provider (a timeout, a lost connection, a 5xx,
    /// 429); the user may still approve, so polling goes on, less often.
    case pending, slowDown, backOff, expired, denied, failed

    init(_ error: AuthError) {
        switch error.providerCode {
        case "authorization_pending": self = .pending
        case "slow_down": self = .slowDown
        case "expired_token": self = .expired
        case "access_denied": self = .denied
        case "temporarily_unavailable", "server_error": self = .backOff
        default:
            switch error.code {
            case .authorizationPending: self = .pending
            case .slowDown: self = .slowDown
            case .expiredToken: self = .expired
            case .timeout, .networkError, .serverError, .rateLimited: self = .backOff
            default: self = (error.status ?? 0) >= 500 ? .backOff : .failed
            }
        }
    }
}
