import Foundation

// The public types that hold secrets and show only a redacted summary (see ``RedactedReflecting``).
// `Session`, `ClientCredentialsToken`, `EndSessionRequest`, `DeviceAuthorization` and `JWSToken` redact in
// their own files.

extension ProviderConfiguration: RedactedReflecting {}

extension ServerHandoff: RedactedReflecting {}

extension AuthClientOptions: RedactedReflecting {
    /// The store key, the refresh leeway and the names of the additional token parameters; no parameter value.
    public var description: String {
        "AuthClientOptions(storeKey: \(storeKey ?? "default"), refreshLeeway: \(refreshLeeway), "
            + "additionalTokenParameters: \(additionalTokenParameters.keys.sorted()))"
    }
}

extension AuthorizationRequest: RedactedReflecting {
    /// The URLs without their queries; the state and nonce are left out.
    public var description: String {
        "AuthorizationRequest(url: \(url.redactedForDisplay), redirectURI: \(redirectURI.redactedForDisplay), "
            + "state: <redacted>\(nonce == nil ? "" : ", nonce: <redacted>"))"
    }
}

extension TransportRequest: RedactedReflecting {
    /// The method, the URL without its query, the header names and the body's size; no header value or body.
    public var description: String {
        "TransportRequest(\(method) \(url.redactedForDisplay), headers: \(headers.map(\.name)), "
            + "body: \(body?.count ?? 0) bytes)"
    }
}

extension TransportResponse: RedactedReflecting {
    /// The status, the header names and the body's size; no header value or body.
    public var description: String {
        "TransportResponse(\(status), headers: \(headers.keys.sorted()), body: \(body.count) bytes)"
    }
}

extension AuthClient: RedactedReflecting {
    /// The provider, the store key and the state; no input value, secret, token or code.
    public nonisolated var description: String {
        "AuthClient(provider: \(provider.name), storeKey: \(storeKey), state: \(state))"
    }
}

extension LoopbackRedirectServer: RedactedReflecting {
    /// The redirect URI only; the expected state and any callback received (with its code) are left out.
    public var description: String { "LoopbackRedirectServer(redirectURI: \(redirectURI.redactedForDisplay))" }
}
