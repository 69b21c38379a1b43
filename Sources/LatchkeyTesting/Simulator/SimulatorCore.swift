import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime

/// The state a ``ProviderSimulator`` shares with its server's handler.
final class SimulatorCore: Sendable {
    let provider: ProviderSpec
    let users: [SimulatedUser]
    let signer: TestSigner
    let keyID = "simulator-1"
    let ledger = Locked(SimulatorLedger())
    private let routeTable = Locked<SimulatorRoutes?>(nil)

    /// Mints the access tokens of descriptors whose access tokens are PASETO `v4.public`.
    let paseto: SimulatorPaseto?

    init(provider: ProviderSpec, users: [SimulatedUser], signer: TestSigner, pasetoSigner: TestSigner? = nil) {
        self.provider = provider
        self.users = users
        self.signer = signer
        self.paseto = pasetoSigner.map {
            var paseto = SimulatorPaseto(signer: $0, implicitAssertion: provider.tokens.implicitAssertion ?? "")
            paseto.footerMembers = provider.tokens.footer
            return paseto
        }
    }

    /// Issues tokens for a grant (bound to the DPoP key `jkt` when given); the access token is a signed PASETO
    /// token when the descriptor verifies them.
    func issue(_ grant: SimulatorLedger.Grant, in ledger: inout SimulatorLedger, boundTo jkt: String? = nil)
        -> (access: String, refresh: String)
    {
        var minted: String?
        if let paseto, let routes {
            minted = paseto.accessToken(
                subject: grant.user.id, issuer: routes.accessTokenIssuer,
                audience: defaultAudience ?? grant.clientID, now: Date(), lifetime: 3600,
                principal: accessTokenPrincipal(grant.user))
        }
        return ledger.issue(grant, minted: minted, boundTo: jkt)
    }

    /// The claims describing the user in an access token: the user document (so that a descriptor reading
    /// the user from the token, or binding `/v1/me` to it, sees the same values), the descriptor's claim
    /// values, and a simulated value for each other claim it requires.
    func accessTokenPrincipal(_ user: SimulatedUser) -> [String: Any] {
        var claims = userDocument(user)
        for (name, value) in provider.tokens.claimValues { claims[name] = value }
        for name in provider.tokens.requiredClaims where claims[name] == nil { claims[name] = "simulated_\(name)" }
        return claims
    }

    /// The descriptor's access-token audience with the inputs the client is configured with (each input's
    /// default otherwise), or `nil` when it names none or an input without a value.
    private var defaultAudience: String? {
        guard let template = provider.tokens.audience else { return nil }
        let configured = routes?.inputs ?? [:]
        return template.render { name in
            configured[name] ?? provider.inputs.first(where: { $0.name == name })?.defaultValue
        }
    }

    var routes: SimulatorRoutes? { routeTable.withLock { $0 } }

    func install(_ routes: SimulatorRoutes) {
        routeTable.withLock { $0 = routes }
    }

    // MARK: - Dispatch

    func handle(_ recorded: RecordedRequest) async -> TestResponse {
        guard let routes else { return .text("The simulator is starting.", status: 503) }
        let request = SimulatorRequest(recorded)
        if let fault = ledger.withLock({ $0.takeFault(for: request.path) }) { return fault }
        let isGet = request.method == "GET"
        if isGet, routes.discoveryPaths.contains(request.path) { return openIDConfiguration(routes) }
        if isGet, request.path == routes.authorizePath { return authorize(request, routes) }
        if isGet, routes.jwksPaths.contains(request.path) {
            return .json(["keys": [signer.publicJWK(keyID: keyID, algorithm: .rs256)]])
        }
        if isGet, let paseto, routes.accessTokenKeyPaths.contains(request.path) { return .json(paseto.keyDocument) }
        if isGet, request.path == "/protected" { return protected(request, routes) }
        if request.method == "POST", request.path == routes.pushedAuthorizationPath { return push(request, routes) }
        if request.path == SimulatorCore.deviceVerificationPath { return approveDevice(request) }
        if isEndSession(request) { return endSession(request) }
        guard let route = routes.route(for: request) else {
            return error("not_found", "The simulator has no endpoint \(request.method) \(request.path).", status: 404)
        }
        if let fault = ledger.withLock({ $0.takeFault(forRequest: route.name) }) { return fault }
        if let refusal = clientAuthenticationFailure(request, route) { return refusal }
        var proofKey: String?
        if [.exchange, .refresh, .password, .deviceToken].contains(route.role) {
            switch tokenEndpointProof(request, routes) {
            case .failure(let refusal): return refusal
            case .success(let thumbprint): proofKey = thumbprint
            }
        }
        let scheme = route.spec.authorizationScheme
        if route.spec.authorization == .accessToken, route.role != .refresh,
            case .failure(let refusal) = resourceGrant(request, scheme: scheme, routes)
        {
            return refusal
        }
        if let answer = captureAnswer(route) { return answer }
        switch route.role {
        case .customDiscovery: return customConfiguration(routes)
        case .exchange: return exchange(request, route, routes, proofKey: proofKey)
        case .refresh: return refresh(request, route, routes, proofKey: proofKey)
        case .password: return password(request, route, routes, proofKey: proofKey)
        case .user: return userResponse(request, scheme: scheme)
        case .deviceAuthorization: return deviceAuthorization(routes)
        case .deviceToken: return deviceToken(request, route, routes, proofKey: proofKey)
        case .generic: return generic(request, route, routes)
        }
    }

    // MARK: - Discovery

    func openIDConfiguration(_ routes: SimulatorRoutes) -> TestResponse {
        var document: [String: Any] = ["issuer": routes.issuer]
        for name in SimulatorRoutes.endpointPaths.keys where name != SimulatorRoutes.pushedAuthorizationMember {
            document[name] = routes.discovered(name)
        }
        document["response_types_supported"] = ["code"]
        document["grant_types_supported"] = [
            "authorization_code", "refresh_token", "password",
            "urn:ietf:params:oauth:grant-type:device_code",
        ]
        document["code_challenge_methods_supported"] = ["S256"]
        document["id_token_signing_alg_values_supported"] = ["RS256"]
        document["subject_types_supported"] = ["public"]
        if let tenantIssuer = routes.tenantIssuerTemplate { document["issuer"] = tenantIssuer }
        if provider.callback.location == .formPost { document["response_modes_supported"] = ["query", "form_post"] }
        if declaresDPoP { document["dpop_signing_alg_values_supported"] = ["ES256"] }
        if routes.pushedAuthorizationPath != nil {
            let member = SimulatorRoutes.pushedAuthorizationMember
            document[member] = routes.discovered(member)
            document["require_pushed_authorization_requests"] = ledger.withLock {
                $0.senderConstraint.requiresPushedAuthorization
            }
        }
        return .json(document)
    }

    func customConfiguration(_ routes: SimulatorRoutes) -> TestResponse {
        var document: [String: Any] = [:]
        for member in routes.customMembers {
            JSONPointerWriter.set(routes.discovered(member.name), at: member.pointer, in: &document)
        }
        return .json(document)
    }

    // MARK: - Browser

    func authorize(_ received: SimulatorRequest, _ routes: SimulatorRoutes) -> TestResponse {
        let request: SimulatorRequest
        switch pushedAuthorization(received, routes) {
        case .failure(let refusal): return refusal
        case .success(let pushed): request = pushed
        }
        let carriers = routes.authorizeCarriers
        let redirectName = carriers["redirect_uri"] ?? "redirect_uri"
        guard let redirect = request.parameter(redirectName) else {
            return .text("The authorization request has no \(redirectName) parameter.", status: 400)
        }
        let callback = provider.callback
        let state = request.parameter(carriers["state"] ?? "state")
        var items: [(String, String)] = []
        let loginHint = request.parameter("login_hint")
        if loginHint == "deny" || request.parameter("deny") == "1" {
            items.append((callback.errorParameter, "access_denied"))
            items.append((callback.errorDescriptionParameter, "The user denied the request."))
            if let state { items.append((callback.stateParameter, state)) }
            return callbackResponse(items, to: redirect)
        }
        let methodName =
            carriers["code_challenge_method"]
            ?? routes.authorizeLiterals.first { $0.value.lowercased() == "s256" || $0.value == "plain" }?.name
            ?? "code_challenge_method"
        let challenge = request.parameter(carriers["code_challenge"] ?? "code_challenge")
        if challenge != nil, request.parameter(methodName)?.lowercased() != "s256" {
            items.append((callback.errorParameter, "invalid_request"))
            items.append((callback.errorDescriptionParameter, "Only the S256 code challenge method is supported."))
            if let state { items.append((callback.stateParameter, state)) }
            return callbackResponse(items, to: redirect)
        }
        if let fault = ledger.withLock({ $0.takeAuthorizationFault() }) {
            items.append((callback.errorParameter, fault.error))
            if let name = callback.errorCodeParameter, let detail = fault.errorCode { items.append((name, detail)) }
            items.append((callback.errorDescriptionParameter, fault.description))
            items += fault.parameters
            if let state { items.append((callback.stateParameter, state)) }
            return callbackResponse(items, to: redirect)
        }
        let user = users.first { loginHint.map($0.isIdentified(by:)) ?? false } ?? users.first ?? .demo
        let clientID =
            request.parameter(carriers["clientID"] ?? carriers["discovered.client_id"] ?? "client_id")
            ?? routes.inputs["clientID"] ?? "demo-client"
        let code = SimulatorLedger.token("sim_code")
        let record = SimulatorLedger.CodeRecord(
            user: user, challenge: challenge, redirectURI: redirect,
            nonce: request.parameter(carriers["nonce"] ?? "nonce"), clientID: clientID,
            dpopJKT: declaresDPoP ? request.parameter("dpop_jkt") : nil)
        ledger.withLock { $0.codes[code] = record }
        items.append((callback.codeParameter, code))
        if let state { items.append((callback.stateParameter, state)) }
        if let issuerName = callback.issuerParameter { items.append((issuerName, routes.issuer)) }
        if let member = firstSignInUser(user) { items.append(member) }
        return callbackResponse(items, to: redirect)
    }

    static func append(_ items: [(String, String)], to redirect: String, location: CallbackSpec.Location) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let text = items.map { name, value in
            (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name) + "="
                + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
        }.joined(separator: "&")
        if location == .fragment { return redirect + "#" + text }
        return redirect + (redirect.contains("?") ? "&" : "?") + text
    }

}

/// A ledger step's result: a value, or the error response to send.
enum SimulatorOutcome<Value> {
    case success(Value)
    case failure(TestResponse)
}
