import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

extension AuthClient {
    /// Whether a URL is a callback for this client (no side effects).
    /// - Parameter url: The URL the app was opened with.
    /// - Returns: `true` when its scheme, host, port and path match a pending sign-in's redirect URI, or when it
    ///   carries a session (or an error) in its fragment for a redirect URI the descriptor's
    ///   `callback.implicit` names.
    public func canHandle(_ url: URL) async -> Bool {
        if implicitLink(url) != nil { return true }
        guard let flows = try? await pendingFlows() else { return false }
        return flows.contains { RedirectURI.matches(url, $0.redirectURI) }
    }

    /// Completes a browser sign-in from its callback URL: checks it, then exchanges the code.
    ///
    /// Nothing is sent to the provider for a callback that carries an error, a wrong state or a wrong
    /// redirect URI. A callback is used once. Only the pending sign-in's `state` proves that a callback
    /// came from the provider: a callback without it (an error callback included) is `state_mismatch` and
    /// consumes nothing, so a forged `?error=access_denied` cannot end the sign-in. For a provider that
    /// echoes no state, an error callback is reported without its description and the sign-in stays
    /// pending.
    ///
    /// On a redirect URI the descriptor's `callback.implicit` names, a session in the fragment (an emailed
    /// link's `#access_token=…`) is accepted without a pending sign-in: the user is fetched with the new access
    /// token, and a link kind the descriptor maps to an event (`type=recovery`) publishes it on ``events()``.
    /// A session in the fragment on any other redirect URI is refused with no request.
    /// - Parameter url: The callback URL.
    /// - Returns: The new session.
    /// - Throws: `redirect_mismatch`, `invalid_callback` (malformed, repeated parameters, replayed, no
    ///   pending sign-in), `state_mismatch`, `issuer_mismatch`, the mapped callback error
    ///   (`login_cancelled`, ...), or the exchange's error; `login_cancelled` as well when
    ///   ``signOut(scope:)`` ran while the code was being exchanged (its session is discarded, never stored).
    @discardableResult
    public func handleCallback(_ url: URL) async throws(AuthError) -> Session {
        switch try await handleCallback(url, arrival: .opened) {
        case .session(let session): return session
        case .unproven(let error): throw error
        }
    }

    /// Handles a callback as ``handleCallback(_:)`` does, knowing how it arrived.
    /// - Parameters:
    ///   - url: The callback URL.
    ///   - arrival: How it reached the client: one from the loopback server is never a session link, and for a
    ///     provider that echoes no state a code the token endpoint refuses leaves the sign-in pending.
    /// - Returns: The session, or the error of a callback that proved nothing and left the sign-in pending.
    func handleCallback(_ url: URL, arrival: CallbackArrival) async throws(AuthError) -> CallbackOutcome {
        if arrival == .loopback {
            // The loopback server takes origin-form targets only, which hold no fragment; a fragment here is
            // refused whatever the redirect URI, so that no local program can hand over a session.
            guard url.fragment == nil else {
                throw failure(.invalidCallback, "A loopback callback carries no fragment.")
            }
        } else {
            switch implicitLink(url) {
            case .session?:
                return .session(try await completeImplicitSession(url))
            case .error?:
                // An error link with no sign-in waiting on its redirect URI (an expired email link).
                let waiting =
                    (try? await pendingFlows())?.contains { RedirectURI.matches(url, $0.redirectURI) } ?? false
                if !waiting || provider.flows.authorizationCode == nil {
                    return .session(try await completeImplicitSession(url))
                }
            case nil:
                if fragmentContents(url) == .session {
                    throw failure(.invalidCallback, "This redirect URI does not accept a session in the fragment.")
                }
            }
        }
        guard let flow = provider.flows.authorizationCode else {
            throw failure(.invalidConfiguration, "This provider has no browser sign-in.")
        }
        let spec = provider.callback
        try? await ensureLoaded()
        let previous = self.state == .authenticating ? AuthState.signedOut : self.state
        let pending = try await pendingFlows()
        let candidates = pending.filter { RedirectURI.matches(url, $0.redirectURI) }
        guard !candidates.isEmpty else {
            if pending.isEmpty { throw failure(.invalidCallback, "No browser sign-in is waiting for a callback.") }
            throw failure(.redirectMismatch, "The callback URL is not the pending sign-in's redirect URI.")
        }
        let parameters = try CallbackParameters(url: url, location: spec.location, provider: provider.name)
        let state = parameters[spec.stateParameter]
        if let state, consumedStates.contains(state) {
            throw failure(.invalidCallback, "This callback was already used.")
        }
        let hasError = parameters[spec.errorParameter] != nil
        // Whoever can open a URL on this device can forge a callback: only the state proves that the provider
        // sent it. A callback without the expected state consumes nothing, errors included.
        let match: PendingFlow
        if let state {
            guard let found = candidates.first(where: { $0.state == state }) else {
                throw failure(.stateMismatch, "The callback's state does not match any pending sign-in.")
            }
            match = found
        } else if flow.returnsState {
            throw failure(.stateMismatch, "The callback carries no state.")
        } else {
            match = candidates[candidates.count - 1]
        }
        // RFC 9207 §2.4 holds for error responses too: an error naming another issuer is a mix-up, refused
        // before it consumes the pending sign-in.
        try await checkIssuer(parameters, isError: hasError)
        if hasError {
            guard state != nil else {
                // A provider that echoes no state (`returnsState: false`) cannot prove that an error came from
                // it: the error is reported, but the pending sign-in stays for the real callback, and the
                // description (anyone's text) is left out.
                return .unproven(mappedCallbackError(parameters, includingDescription: false))
            }
            try await consume(match)
            let error = mappedCallbackError(parameters)
            publishAfterFailure(previous: previous)
            throw error
        }
        guard let code = parameters[spec.codeParameter] else {
            throw failure(.invalidCallback, "The callback carries no authorization code.")
        }
        try await consume(match)
        apply(.signInStarted)
        let fence = signInFence()
        do {
            return .session(
                try await exchange(code: code, pending: match, flow: flow, callback: parameters, fence: fence))
        } catch {
            // Without a state, only the token endpoint can tell whether a loopback code was this sign-in's (PKCE
            // binds it to the verifier): a refused one was anyone's, so the sign-in stays pending for the real one.
            if arrival == .loopback, state == nil, CallbackOutcome.refusesCode(error) {
                try await restore(match)
                return .unproven(error)
            }
            publishAfterFailure(previous: previous)
            throw error
        }
    }

    /// Puts back a pending sign-in that an unproven callback consumed.
    private func restore(_ flow: PendingFlow) async throws(AuthError) {
        consumedStates.remove(flow.state)
        try await updatePending { flows in
            if !flows.contains(where: { $0.state == flow.state }) { flows.append(flow) }
        }
    }

    private func exchange(
        code: String, pending: PendingFlow, flow: AuthorizationCodeFlowSpec, callback: CallbackParameters,
        fence: Int
    ) async throws(AuthError) -> Session {
        // The key the sign-in was prepared with (its thumbprint went out as `dpop_jkt` when pushed).
        var proofKey = usesDPoP ? pending.dpopKey.flatMap(DPoPKey.init(storedForm:)) : nil
        if usesDPoP, proofKey == nil { proofKey = try newProofKey() }
        let grant = CodeExchangeGrant(flow: flow, code: code, pending: pending)
        let (spec, document, response) = try await send(grant.request, proofKey: proofKey)
        var fresh = try grant.interpret(
            try decodeSession(document, response, request: spec, proofKey: proofKey), callback: callback,
            scopeParameter: provider.callback.scopeParameter, provider: provider.name)
        let claims = try await validateNewIDToken(fresh, nonce: pending.nonce, maxAge: pending.maxAge)
        let accessClaims = try await validateNewAccessToken(&fresh)
        if flow.fetchesUser, let userInfo = provider.flows.userInfo {
            let (_, userDocument, _) = try await send(
                userInfo.request, accessToken: fresh.accessToken, proofKey: fresh.boundProofKey)
            try checkUserDocument(userDocument, against: accessClaims)
            // With the user read from the verified access token, the document only confirms it.
            if !provider.tokens.userFromAccessToken || accessClaims == nil {
                fresh.user = try decoder.user(from: userDocument ?? .null)
            }
        }
        fresh.user = completingUser(try user(fresh.user, boundTo: claims), claims: claims, callback: callback)
        let installed = try await install(fresh, fence: fence)
        if let event = pending.event { eventBroadcaster.publish(AuthEvent(event)) }
        return installed
    }

    /// Removes a pending sign-in so that its callback cannot be used again.
    private func consume(_ flow: PendingFlow) async throws(AuthError) {
        let wasPending = try await updatePending { flows in
            let count = flows.count
            flows.removeAll { $0.state == flow.state }
            return flows.count != count
        }
        consumedStates.insert(flow.state)
        guard wasPending else { throw failure(.invalidCallback, "This callback was already used.") }
    }

    private func checkIssuer(_ parameters: CallbackParameters, isError: Bool) async throws(AuthError) {
        // RFC 9207 §2.4: a provider that advertises `iss` in authorization responses must send it, and an
        // `iss` that is present must be the issuer's whether advertised or not (except where each tenant has
        // its own issuer, which only the ID token's `tid` tells).
        if case .openID = provider.discovery { _ = try await discover() }
        let advertised = discovery?.document["authorization_response_iss_parameter_supported"] == .bool(true)
        let checksStandardName = advertised || provider.tokens.issuerValidation == .exact
        guard let name = provider.callback.issuerParameter ?? (checksStandardName ? "iss" : nil) else { return }
        guard let issuer = parameters[name] else {
            // Providers that advertise `iss` still leave it out of error responses (django-oauth-toolkit):
            // a missing `iss` there is tolerated, a wrong one never is.
            guard !advertised || isError else {
                throw failure(.issuerMismatch, "The callback carries no issuer, though the provider says it sends one.")
            }
            return
        }
        var expected: String?
        if case .openID(let template, _) = provider.discovery {
            expected = try? TemplateRenderer.text(template, in: try await scope())
        } else if let template = provider.tokens.issuer {
            expected = try? TemplateRenderer.text(template, in: try await scope())
        }
        if let expected = expected ?? discovery?.values["issuer"], expected != issuer {
            throw failure(.issuerMismatch, "The callback's issuer is not this provider's issuer.")
        }
    }

    /// The callback's error, mapped through the descriptor's callback rows to a stable code.
    /// - Parameters:
    ///   - parameters: The callback's parameters.
    ///   - includingDescription: Whether the provider's `error_description` goes into the message (only when
    ///     the callback's state proved where it came from).
    func mappedCallbackError(_ parameters: CallbackParameters, includingDescription: Bool = true) -> AuthError {
        let spec = provider.callback
        let errorValue = parameters[spec.errorParameter]
        let detailCode = spec.errorCodeParameter.flatMap { parameters[$0] }
        var code = ErrorClassifier.code(providerCode: errorValue, status: nil, rules: [])
        // A row's `match` names callback parameters with one-segment pointers (`/error_reason`).
        let member = { (pointer: String) in parameters[String(pointer.dropFirst())] }
        for candidate in [detailCode, errorValue].compactMap({ $0 }) {
            let rules = provider.errors.callbackRules
            if let rule = rules.first(where: {
                $0.matches(providerCode: candidate, status: nil, request: nil, member: member)
            }) {
                code = AuthError.Code(rule.code, kind: rule.kind)
                break
            }
        }
        let description =
            includingDescription ? parameters[spec.errorDescriptionParameter].map { String($0.prefix(300)) } : nil
        var error = AuthError(
            code, "The sign-in ended with '\(errorValue ?? "error")'" + (description.map { ": \($0)" } ?? "."),
            providerCode: detailCode ?? errorValue, provider: provider.name)
        if includingDescription, let text = parameters[spec.errorDescriptionParameter], !text.isEmpty {
            let limit = ErrorClassifier.providerMessageLimit
            error.providerMessage = text.count > limit ? String(text.prefix(limit)) + "…" : text
        }
        return error
    }

}
