import Foundation

extension AuthClient {
    /// Starts a device authorization (RFC 8628 §3.1): asks the provider for a device code and a user code.
    ///
    /// Show the returned ``DeviceAuthorization/userCode`` and ``DeviceAuthorization/verificationURI`` to the
    /// user, then call ``completeDeviceAuthorization(_:)``.
    /// - Parameter scopes: The scopes (default: the browser flow's default scopes, or none).
    /// - Returns: The codes and where the user enters them.
    /// - Throws: `invalid_configuration` when the provider has no device flow (or its endpoint is unknown);
    ///   `invalid_response` for a malformed answer; the provider's mapped error (`invalid_client`, ...).
    public func startDeviceAuthorization(scopes: [String]? = nil) async throws(AuthError) -> DeviceAuthorization {
        guard let flow = provider.flows.deviceCode else {
            throw failure(.invalidConfiguration, "This provider has no device authorization.")
        }
        let browser = provider.flows.authorizationCode
        let chosen = scopes ?? browser?.defaultScopes ?? []
        let scope = chosen.isEmpty ? nil : JSON.string(chosen.joined(separator: browser?.scopeSeparator ?? " "))
        let (_, document, _) = try await send(flow.authorizationRequest, flow: ["scope": scope])
        guard let document else {
            throw failure(.invalidResponse, "The device authorization response is empty.")
        }
        return try DeviceAuthorization.decode(document, issuedAt: now(), provider: provider.name)
    }

    /// Waits for the user to approve a device authorization (RFC 8628 §3.4–3.5), then signs in.
    ///
    /// Polls the token request every ``DeviceAuthorization/interval`` seconds (through
    /// ``AuthClientOptions/sleep``): `authorization_pending` keeps polling, `slow_down` adds 5 seconds to
    /// the interval, a timeout doubles it. An ID token in the answer is validated like a browser
    /// sign-in's (without a nonce). The session is stored and published like any other sign-in;
    /// when the token response has no user and the provider has a user-info flow, the user is fetched
    /// (a failure there is logged and the session kept without a user). Publishes `authenticating`
    /// meanwhile.
    /// - Parameter authorization: What ``startDeviceAuthorization(scopes:)`` returned.
    /// - Returns: The new session.
    /// - Throws: `expired_token` when the codes expired (the provider said so, or the local clock passed
    ///   ``DeviceAuthorization/expiresAt``); `login_cancelled` when the user denied (`access_denied`) or
    ///   the task was cancelled; `invalid_id_token` for an ID token that fails validation; any other
    ///   error of the token request as it is.
    @discardableResult
    public func completeDeviceAuthorization(_ authorization: DeviceAuthorization) async throws(AuthError) -> Session {
        guard let flow = provider.flows.deviceCode else {
            throw failure(.invalidConfiguration, "This provider has no device authorization.")
        }
        try? await ensureLoaded()
        let previous = state
        broadcaster.publish(.authenticating)
        do {
            var fresh = try await pollDeviceToken(authorization, flow: flow)
            try await validateNewIDToken(fresh, nonce: nil)
            if fresh.user == nil, let userInfo = provider.flows.userInfo {
                do {
                    let (_, userDocument, _) = try await send(userInfo.request, accessToken: fresh.accessToken)
                    fresh.user = try decoder.user(from: userDocument ?? .null)
                } catch {
                    log(.info, "The user could not be fetched after the device sign-in (\(error.code.rawValue)).")
                }
            }
            return try await install(fresh)
        } catch {
            publishAfterFailure(previous: previous)
            throw error
        }
    }

    /// Polls until the provider issues tokens or ends the flow.
    private func pollDeviceToken(_ authorization: DeviceAuthorization, flow: DeviceCodeFlowSpec) async throws(AuthError)
        -> Session
    {
        var interval = authorization.interval
        while true {
            try await pauseDevicePolling(seconds: interval)
            guard now() < authorization.expiresAt else {
                throw failure(.expiredToken, "The device code expired before the user approved it.")
            }
            let answer: (document: JSON?, response: TransportResponse)
            do {
                let (_, document, response) = try await send(
                    flow.tokenRequest, flow: ["device_code": .string(authorization.deviceCode)], isTokenRequest: true)
                answer = (document, response)
            } catch {
                if Task.isCancelled { throw deviceCancelled() }
                switch DevicePollOutcome(error) {
                case .pending:
                    continue
                case .slowDown:
                    interval += DeviceAuthorization.slowDownStep
                    log(.info, "The provider asked to slow down; polling every \(interval) s.")
                    continue
                case .timedOut:
                    interval = min(interval * 2, 300)
                    log(.info, "The token request timed out; polling every \(interval) s.")
                    continue
                case .expired:
                    throw AuthError(
                        .expiredToken, "The device code expired before the user approved it.",
                        providerCode: error.providerCode, status: error.status, provider: provider.name)
                case .denied:
                    throw AuthError(
                        .loginCancelled, "The user denied the device authorization.",
                        providerCode: error.providerCode, status: error.status, provider: provider.name)
                case .failed:
                    throw error
                }
            }
            return try decodeSession(
                answer.document, answer.response, request: provider.requests[flow.tokenRequest])
        }
    }

    /// Waits between polls; cancellation ends the flow.
    private func pauseDevicePolling(seconds: Int) async throws(AuthError) {
        if Task.isCancelled { throw deviceCancelled() }
        do {
            try await options.sleep(.seconds(seconds))
        } catch {
            throw deviceCancelled()
        }
        if Task.isCancelled { throw deviceCancelled() }
    }

    private func deviceCancelled() -> AuthError {
        failure(.loginCancelled, "The device authorization was cancelled.")
    }
}

/// What a failed device token request means for the polling loop (RFC 8628 §3.5).
private enum DevicePollOutcome {
    case pending, slowDown, timedOut, expired, denied, failed

    init(_ error: AuthError) {
        switch error.providerCode {
        case "authorization_pending": self = .pending
        case "slow_down": self = .slowDown
        case "expired_token": self = .expired
        case "access_denied": self = .denied
        default:
            switch error.code {
            case .authorizationPending: self = .pending
            case .slowDown: self = .slowDown
            case .expiredToken: self = .expired
            case .timeout: self = .timedOut
            default: self = .failed
            }
        }
    }
}
