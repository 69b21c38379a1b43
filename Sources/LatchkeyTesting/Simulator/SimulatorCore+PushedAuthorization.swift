import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime

/// Pushed authorization requests (RFC 9126), for descriptors that declare `pushedAuthorization`: the endpoint
/// takes the authorization parameters and answers a one-time `request_uri`, which the authorize endpoint then
/// opens with `client_id` alone.
extension SimulatorCore {
    /// The prefix of the request URIs the simulator hands out (RFC 9126 §2.2).
    static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"
    /// The longest pushed request the simulator takes, in bytes.
    static let maximumPushedRequestBytes = 16_384

    /// The pushed authorization request endpoint (RFC 9126 §2): the client authenticates as at the token
    /// endpoint, the parameters are checked as the authorize endpoint checks them, a DPoP proof (when sent) as
    /// the token endpoint checks it (``pushedRequestProof(_:_:)``: its key binds the code, and must be the one
    /// `dpop_jkt` names), and a 201 answers `request_uri` and `expires_in`.
    func push(_ request: SimulatorRequest, _ routes: SimulatorRoutes) -> TestResponse {
        if let name = provider.flows.authorizationCode?.exchangeRequest, let route = routes.route(named: name),
            let refusal = clientAuthenticationFailure(request, route)
        {
            return refusal
        }
        guard request.recorded.body.count <= Self.maximumPushedRequestBytes else {
            return error("invalid_request", "The pushed request is too large.", status: 413)
        }
        let carriers = routes.authorizeCarriers
        guard request.parameters["request_uri"] == nil else {
            return error("invalid_request", "A pushed request cannot carry request_uri.", status: 400)
        }
        let clientName = carriers["clientID"] ?? carriers["discovered.client_id"] ?? "client_id"
        guard request.parameter(clientName) != nil else {
            return error("invalid_request", "The pushed request has no \(clientName).", status: 400)
        }
        let redirectName = carriers["redirect_uri"] ?? "redirect_uri"
        guard request.parameter(redirectName) != nil else {
            return error("invalid_request", "The pushed request has no \(redirectName).", status: 400)
        }
        if request.parameter(carriers["code_challenge"] ?? "code_challenge") != nil,
            request.parameter(carriers["code_challenge_method"] ?? "code_challenge_method")?.lowercased() != "s256"
        {
            return error("invalid_request", "Only the S256 code challenge method is supported.", status: 400)
        }
        // RFC 9449 §10.1: a proof binds the code to its key, as `dpop_jkt` does (both must name the same key).
        var parameters = request.parameters
        switch pushedRequestProof(request, routes) {
        case .failure(let refusal): return refusal
        case .success(let thumbprint): if let thumbprint { parameters["dpop_jkt"] = thumbprint }
        }
        let requestURI = Self.requestURIPrefix + SimulatorLedger.token("par")
        let lifetime = ledger.withLock { ledger in
            let lifetime = ledger.senderConstraint.pushedRequestLifetime
            ledger.senderConstraint.pushedRequests[requestURI] = .init(
                parameters: parameters, expiresAt: Date().addingTimeInterval(TimeInterval(lifetime)))
            return lifetime
        }
        return .json(
            ["request_uri": requestURI, "expires_in": lifetime], status: 201, headers: [("Cache-Control", "no-store")])
    }

    /// An authorization request as the authorize endpoint reads it: one opened by its `request_uri` (RFC 9126
    /// §4) carries the pushed parameters only (others in the URL are ignored). A `request_uri` is used once; an
    /// unknown or used one, or one sent with another `client_id`, is a 400; an expired one an `invalid_request_uri`
    /// callback. When pushing is required, a request that was not pushed gets an `invalid_request` callback.
    func pushedAuthorization(_ request: SimulatorRequest, _ routes: SimulatorRoutes)
        -> SimulatorOutcome<SimulatorRequest>
    {
        guard routes.pushedAuthorizationPath != nil else { return .success(request) }
        let carriers = routes.authorizeCarriers
        let clientName = carriers["clientID"] ?? carriers["discovered.client_id"] ?? "client_id"
        guard let requestURI = request.parameter("request_uri") else {
            guard ledger.withLock({ $0.senderConstraint.requiresPushedAuthorization }) else {
                return .success(request)
            }
            return .failure(
                authorizationError(
                    "invalid_request", "This provider requires pushed authorization requests.", request.parameters,
                    routes))
        }
        let now = Date()
        let taken = ledger.withLock { $0.senderConstraint.pushedRequests.removeValue(forKey: requestURI) }
        guard let pushed = taken else {
            return .failure(.text("The request_uri is unknown or was already used (invalid_request_uri).", status: 400))
        }
        guard pushed.parameters[clientName] == request.parameter(clientName) else {
            return .failure(.text("The client_id is not the pushed request's (invalid_request).", status: 400))
        }
        // RFC 9126 §4 opens the request as RFC 9101 §5 does: only the pushed parameters count, whatever else the
        // URL carries.
        guard now < pushed.expiresAt else {
            return .failure(
                authorizationError("invalid_request_uri", "The request_uri has expired.", pushed.parameters, routes))
        }
        var opened = request
        opened.parameters = pushed.parameters
        return .success(opened)
    }

    /// An error callback to an authorization request's redirect URI with its state, or a 400 when it names none.
    private func authorizationError(
        _ code: String, _ description: String, _ parameters: [String: String], _ routes: SimulatorRoutes
    ) -> TestResponse {
        let carriers = routes.authorizeCarriers
        guard let redirect = parameters[carriers["redirect_uri"] ?? "redirect_uri"], !redirect.isEmpty else {
            return .text("\(description) (\(code))", status: 400)
        }
        let callback = provider.callback
        var items = [(callback.errorParameter, code), (callback.errorDescriptionParameter, description)]
        if let state = parameters[carriers["state"] ?? "state"] { items.append((callback.stateParameter, state)) }
        return callbackResponse(items, to: redirect)
    }

    /// Marks every pushed request as expired (``ProviderSimulator/expirePushedRequests()``).
    func expirePushedRequests() {
        let past = Date(timeIntervalSince1970: 0)
        ledger.withLock { ledger in
            for key in ledger.senderConstraint.pushedRequests.keys {
                ledger.senderConstraint.pushedRequests[key]?.expiresAt = past
            }
        }
    }
}
