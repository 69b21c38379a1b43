import Foundation
import LatchkeyTokens

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
        try ClientSecretCheck.checkFlow(
            [flow.tokenRequest], flow: "Device sign-in", provider: provider, configuration: configuration)
        let browser = provider.flows.authorizationCode
        let chosen = scopes ?? browser?.defaultScopes ?? []
        let scope = chosen.isEmpty ? nil : chosen.joined(separator: browser?.scopeSeparator ?? " ")
        let (_, document, _) = try await send(
            DeviceCodeGrant(flow: flow).authorizationRequest(scope: scope), proofKey: nil)
        guard let document else {
            throw failure(.invalidResponse, "The device authorization response is empty.")
        }
        return try DeviceAuthorization.decode(document, issuedAt: now(), provider: provider.name)
    }

    /// Waits for the user to approve a device authorization (RFC 8628 §3.4–3.5), then signs in.
    ///
    /// Polls the token request every ``DeviceAuthorization/interval`` seconds (through
    /// ``AuthClientOptions/sleep``), never waiting past ``DeviceAuthorization/expiresAt``:
    /// `authorization_pending` keeps polling, `slow_down` adds 5 seconds to the interval, and a failure on
    /// the way or at the provider (a timeout, a lost connection, HTTP 5xx or 429) doubles it and keeps
    /// polling; the interval never exceeds ``DeviceAuthorization/maximumInterval``. An ID token in the answer is validated like a browser
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
        apply(.signInStarted)
        let fence = signInFence()
        do {
            var fresh = try await pollDeviceToken(authorization, flow: flow)
            let claims = try await validateNewIDToken(fresh, nonce: nil)
            if fresh.user == nil, let userInfo = provider.flows.userInfo {
                do {
                    let (_, userDocument, _) = try await send(
                        userInfo.request, accessToken: fresh.accessToken, proofKey: fresh.boundProofKey)
                    fresh.user = try decoder.user(from: userDocument ?? .null)
                } catch {
                    log(.info, "The user could not be fetched after the device sign-in (\(error.code.rawValue)).")
                }
            }
            fresh.user = try user(fresh.user, boundTo: claims)
            return try await install(fresh, fence: fence)
        } catch {
            publishAfterFailure(previous: previous)
            throw error
        }
    }

    /// Polls until the provider issues tokens or ends the flow.
    private func pollDeviceToken(_ authorization: DeviceAuthorization, flow: DeviceCodeFlowSpec) async throws(AuthError)
        -> Session
    {
        var interval = min(authorization.interval, DeviceAuthorization.maximumInterval)
        let grant = DeviceCodeGrant(flow: flow)
        let proofKey = try newProofKey()
        while true {
            try await pauseDevicePolling(seconds: interval, until: authorization.expiresAt)
            guard now() < authorization.expiresAt else {
                throw failure(.expiredToken, "The device code expired before the user approved it.")
            }
            let answer: (document: JSON?, response: TransportResponse)
            do {
                let (_, document, response) = try await send(
                    grant.tokenRequest(deviceCode: authorization.deviceCode), proofKey: proofKey)
                answer = (document, response)
            } catch {
                if Task.isCancelled { throw deviceCancelled() }
                let outcome = DevicePollOutcome(error)
                interval = DeviceCodeGrant.interval(after: outcome, current: interval)
                switch outcome {
                case .pending:
                    continue
                case .slowDown:
                    log(.info, "The provider asked to slow down; polling every \(interval) s.")
                    continue
                case .backOff:
                    log(.info, "The token request failed (\(error.code.rawValue)); polling every \(interval) s.")
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
                answer.document, answer.response, request: provider.requests[flow.tokenRequest], proofKey: proofKey)
        }
    }

    /// Waits between polls, never past the codes' expiry; cancellation ends the flow.
    /// - Parameters:
    ///   - seconds: The polling interval.
    ///   - expiry: When the codes expire: the wait ends then at the latest.
    /// - Throws: `expired_token` when the codes have expired already; `login_cancelled` when cancelled.
    private func pauseDevicePolling(seconds: Int, until expiry: Date) async throws(AuthError) {
        if Task.isCancelled { throw deviceCancelled() }
        let remaining = expiry.timeIntervalSince(now())
        guard remaining > 0 else {
            throw failure(.expiredToken, "The device code expired before the user approved it.")
        }
        do {
            try await options.sleep(.seconds(min(Double(seconds), remaining)))
        } catch {
            throw deviceCancelled()
        }
        if Task.isCancelled { throw deviceCancelled() }
    }

    private func deviceCancelled() -> AuthError {
        failure(.loginCancelled, "The device authorization was cancelled.")
    }
}
