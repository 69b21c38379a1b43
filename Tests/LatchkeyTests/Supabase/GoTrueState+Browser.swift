import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// OAuth in the browser: `/authorize`, the fake external provider, and `/callback` back to the app.
extension GoTrueState {
    // MARK: - OAuth in the browser

    mutating func authorize(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let provider = request.query("provider") ?? ""
        guard ["google", "github", "apple"].contains(provider) else {
            throw httpError(
                request, 400, "validation_failed", "Unsupported provider: provider \(provider) could not be found")
        }
        let challenge = request.query("code_challenge") ?? ""
        let method = (request.query("code_challenge_method") ?? "").lowercased()
        guard challenge.isEmpty == method.isEmpty else {
            throw httpError(
                request, 400, "validation_failed", "PKCE flow requires code_challenge_method and code_challenge")
        }
        if !challenge.isEmpty {
            guard (43...128).contains(challenge.count),
                challenge.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._~-".contains($0)) })
            else {
                throw httpError(request, 400, "validation_failed", "code challenge does not match the required format")
            }
            guard ["s256", "plain"].contains(method) else {
                throw httpError(request, 400, "validation_failed", "code challenge method not supported")
            }
        }
        let flow = FlowState(
            id: Self.uuid(), authCode: Self.uuid(), challenge: challenge, method: method, provider: provider,
            authenticationMethod: "oauth", redirectTo: allowedRedirect(request.query("redirect_to")), userID: nil,
            codeIssued: false, callbackUsed: false, createdAt: now)
        flowStates.append(flow)
        let location =
            base.absoluteString + "/provider/authorize?"
            + Self.encode([
                ("client_id", "google-client"), ("redirect_uri", base.absoluteString + "/auth/v1/callback"),
                ("response_type", "code"), ("state", flow.id),
            ])
        return .redirect(to: location)
    }

    /// The fake external provider (Google): consents or cancels, then returns to GoTrue's callback.
    func providerAuthorize(_ request: RecordedRequest) -> TestResponse {
        let callback = request.query("redirect_uri") ?? ""
        let state = request.query("state") ?? ""
        switch providerDecision {
        case .consent:
            return .redirect(
                to: callback + "?" + Self.encode([("code", "google-code-" + Self.uuid()), ("state", state)]))
        case .cancel:
            return .redirect(
                to: callback + "?"
                    + Self.encode([
                        ("error", "access_denied"), ("error_description", "The user denied access"), ("state", state),
                    ]))
        }
    }

    mutating func callback(_ request: RecordedRequest) -> TestResponse {
        guard let state = request.query("state"), !state.isEmpty else {
            return siteError("bad_oauth_callback", "OAuth state parameter missing")
        }
        guard let index = flowStates.firstIndex(where: { $0.id == state }) else {
            return siteError("bad_oauth_state", "OAuth state not found or expired")
        }
        if now.timeIntervalSince(flowStates[index].createdAt) > Self.flowStateLifetime {
            return siteError("bad_oauth_state", "OAuth state has expired")
        }
        if flowStates[index].callbackUsed {
            return siteError("flow_state_already_used", "State has already been used")
        }
        flowStates[index].callbackUsed = true
        let redirect = flowStates[index].redirectTo
        if let error = request.query("error") {
            // The provider's own error is re-emitted as an OAuthError: no error_code; query and fragment.
            let pairs = [("error", error), ("error_description", request.query("error_description") ?? "")]
            return .redirect(to: Self.appending(pairs, to: redirect) + "#" + Self.encode(pairs + [("sb", "")]))
        }
        guard case .consent(let email, let name) = providerDecision else {
            return siteError("bad_oauth_callback", "unexpected callback")
        }
        let userID =
            users.first(where: { $0.email == email })?.id
            ?? createUser(
                email: email, password: nil, provider: flowStates[index].provider, confirmed: true, name: name)
        flowStates[index].userID = userID
        flowStates[index].codeIssued = true
        return .redirect(to: Self.appending([("code", flowStates[index].authCode)], to: redirect))
    }

    func siteError(_ code: String, _ description: String) -> TestResponse {
        .redirect(
            to: siteURL + "?"
                + Self.encode([("error", "invalid_request"), ("error_code", code), ("error_description", description)]),
            status: 303)
    }
}
