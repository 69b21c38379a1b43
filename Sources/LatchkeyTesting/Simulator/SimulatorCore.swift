import Foundation
@_spi(Generated) import LatchkeyRuntime
import Synchronization

/// The state a ``ProviderSimulator`` shares with its server's handler.
final class SimulatorCore: Sendable {
    let provider: ProviderSpec
    let users: [SimulatedUser]
    let signer: TestSigner
    let keyID = "simulator-1"
    let ledger = Mutex(SimulatorLedger())
    private let routeTable = Mutex<SimulatorRoutes?>(nil)

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

    /// Issues tokens for a grant; the access token is a signed PASETO token when the descriptor verifies them.
    func issue(_ grant: SimulatorLedger.Grant, in ledger: inout SimulatorLedger) -> (access: String, refresh: String) {
        var minted: String?
        if let paseto, let routes {
            minted = paseto.accessToken(
                subject: grant.user.id, issuer: routes.accessTokenIssuer,
                audience: defaultAudience ?? grant.clientID, now: Date(), lifetime: 3600,
                principal: accessTokenPrincipal(grant.user))
        }
        return ledger.issue(grant, minted: minted)
    }

    /// The claims describing the user in an access token: the user document (so that a descriptor reading
    /// the user from the token, or binding `/v1/me` to it, sees the same values), the descriptor's claim
    /// values, and a simulated value for each other claim it requires.
    private func accessTokenPrincipal(_ user: SimulatedUser) -> [String: Any] {
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
        if isGet, request.path == "/protected" { return protected(request) }
        if request.path == SimulatorCore.deviceVerificationPath { return approveDevice(request) }
        guard let route = routes.route(for: request) else {
            return error("not_found", "The simulator has no endpoint \(request.method) \(request.path).", status: 404)
        }
        if let fault = ledger.withLock({ $0.takeFault(forRequest: route.name) }) { return fault }
        if let refusal = clientAuthenticationFailure(request, route) { return refusal }
        let scheme = route.spec.authorizationScheme
        if route.spec.authorization == .accessToken, route.role != .refresh,
            ledger.withLock({ $0.grant(forAccessToken: request.authorizationToken(scheme: scheme)) }) == nil
        {
            return error("invalid_token", "A current access token is required.", status: 401)
        }
        switch route.role {
        case .customDiscovery: return customConfiguration(routes)
        case .exchange: return exchange(request, route, routes)
        case .refresh: return refresh(request, route, routes)
        case .password: return password(request, route, routes)
        case .user: return userResponse(request, scheme: scheme)
        case .deviceAuthorization: return deviceAuthorization(routes)
        case .deviceToken: return deviceToken(request, route, routes)
        case .generic: return generic(request, route, routes)
        }
    }

    // MARK: - Discovery

    private func openIDConfiguration(_ routes: SimulatorRoutes) -> TestResponse {
        var document: [String: Any] = ["issuer": routes.issuer]
        for name in SimulatorRoutes.endpointPaths.keys { document[name] = routes.discovered(name) }
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
        return .json(document)
    }

    private func customConfiguration(_ routes: SimulatorRoutes) -> TestResponse {
        var document: [String: Any] = [:]
        for member in routes.customMembers {
            JSONPointerWriter.set(routes.discovered(member.name), at: member.pointer, in: &document)
        }
        return .json(document)
    }

    // MARK: - Browser

    private func authorize(_ request: SimulatorRequest, _ routes: SimulatorRoutes) -> TestResponse {
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
            nonce: request.parameter(carriers["nonce"] ?? "nonce"), clientID: clientID)
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

    // MARK: - Tokens

    private func exchange(_ request: SimulatorRequest, _ route: SimulatorRoutes.Route, _ routes: SimulatorRoutes)
        -> TestResponse
    {
        let code = request.parameter(route.carriers["code"] ?? "code")
        let verifier = request.parameter(route.carriers["code_verifier"] ?? "code_verifier")
        let redirect = request.parameter(route.carriers["redirect_uri"])
        let outcome: SimulatorOutcome<(SimulatedUser, String?, String, (String, String))> = ledger.withLock { ledger in
            guard let code, var record = ledger.codes[code] else {
                return .failure(error(grantCode(), "The authorization code is unknown.", status: 400))
            }
            guard !record.used else {
                if let family = record.family { ledger.revokedFamilies.insert(family) }
                return .failure(error(grantCode(), "The authorization code was already used.", status: 400))
            }
            record.used = true
            ledger.codes[code] = record
            if let challenge = record.challenge {
                guard let verifier, PKCE.challenge(for: verifier) == challenge else {
                    return .failure(error(grantCode(), "PKCE verification failed.", status: 400))
                }
            }
            if route.carriers["redirect_uri"] != nil, redirect != record.redirectURI {
                return .failure(
                    error(grantCode(), "The redirect_uri does not match the authorization request.", status: 400))
            }
            let family = SimulatorLedger.token("family")
            record.family = family
            ledger.codes[code] = record
            let tokens = issue(.init(user: record.user, family: family, clientID: record.clientID), in: &ledger)
            return .success((record.user, record.nonce, record.clientID, tokens))
        }
        switch outcome {
        case .failure(let response): return response
        case .success(let (user, nonce, clientID, tokens)):
            return session(user: user, tokens: tokens, nonce: nonce, clientID: clientID, routes, route)
        }
    }

    private func refresh(_ request: SimulatorRequest, _ route: SimulatorRoutes.Route, _ routes: SimulatorRoutes)
        -> TestResponse
    {
        let token = request.parameter(route.carriers["refresh_token"] ?? "refresh_token")
        let outcome: SimulatorOutcome<(SimulatorLedger.Grant, (String, String))> = ledger.withLock { ledger in
            guard let token, let entry = ledger.refreshTokens[token],
                !ledger.revokedFamilies.contains(entry.grant.family)
            else {
                return .failure(error(grantCode(), "The refresh token is unknown or revoked.", status: 400))
            }
            guard !entry.used else {
                ledger.revokedFamilies.insert(entry.grant.family)
                let code = provider.flows.refresh?.reuseCodes.first ?? grantCode()
                return .failure(error(code, "The refresh token was already used; its family is revoked.", status: 400))
            }
            ledger.refreshTokens[token] = (entry.grant, true)
            return .success((entry.grant, issue(entry.grant, in: &ledger)))
        }
        switch outcome {
        case .failure(let response): return response
        case .success(let (grant, tokens)):
            return session(user: grant.user, tokens: tokens, nonce: nil, clientID: grant.clientID, routes, route)
        }
    }

    private func password(_ request: SimulatorRequest, _ route: SimulatorRoutes.Route, _ routes: SimulatorRoutes)
        -> TestResponse
    {
        let identifier = request.parameter(route.carriers["username"] ?? "username")
        let secret = request.parameter(route.carriers["password"] ?? "password")
        guard let identifier, let secret,
            let user = users.first(where: { $0.isIdentified(by: identifier) }), user.password == secret
        else {
            return error(
                providerCode(for: "invalid_credentials") ?? grantCode(), "Invalid login credentials.", status: 400)
        }
        let clientID = routes.inputs["clientID"] ?? "demo-client"
        let tokens = ledger.withLock {
            issue(.init(user: user, family: SimulatorLedger.token("family"), clientID: clientID), in: &$0)
        }
        return session(user: user, tokens: tokens, nonce: nil, clientID: clientID, routes, route)
    }

    private func deviceAuthorization(_ routes: SimulatorRoutes) -> TestResponse {
        let deviceCode = SimulatorLedger.token("sim_device")
        let userCode = Self.userCode()
        let user = users.first ?? .demo
        ledger.withLock { $0.deviceCodes[deviceCode] = SimulatorLedger.DeviceRecord(user: user, userCode: userCode) }
        let verification = routes.base.absoluteString + Self.deviceVerificationPath
        return .json([
            "device_code": deviceCode, "user_code": userCode, "verification_uri": verification,
            "verification_uri_complete": verification + "?user_code=" + userCode, "expires_in": 600, "interval": 1,
        ])
    }

    private func deviceToken(_ request: SimulatorRequest, _ route: SimulatorRoutes.Route, _ routes: SimulatorRoutes)
        -> TestResponse
    {
        let code = request.parameter(route.carriers["device_code"] ?? "device_code")
        let clientID = routes.inputs["clientID"] ?? "demo-client"
        // The user approves right after the first poll: that one is answered `authorization_pending`.
        let outcome: SimulatorOutcome<(SimulatedUser, (String, String))> = ledger.withLock { ledger in
            guard let code, var record = ledger.deviceCodes[code] else {
                return .failure(error("expired_token", "The device code is unknown or was already used.", status: 400))
            }
            record.polls += 1
            guard record.polls > 1 || record.approved else {
                ledger.deviceCodes[code] = record
                return .failure(
                    error("authorization_pending", "The user has not approved the device yet.", status: 400))
            }
            ledger.deviceCodes[code] = nil
            let grant = SimulatorLedger.Grant(
                user: record.user, family: SimulatorLedger.token("family"), clientID: clientID)
            return .success((record.user, issue(grant, in: &ledger)))
        }
        switch outcome {
        case .failure(let response): return response
        case .success(let (user, tokens)):
            return session(user: user, tokens: tokens, nonce: nil, clientID: clientID, routes, route)
        }
    }

    private func generic(_ request: SimulatorRequest, _ route: SimulatorRoutes.Route, _ routes: SimulatorRoutes)
        -> TestResponse
    {
        switch route.spec.response {
        case .none:
            ledger.withLock { ledger in
                ledger.revokeFamily(ofToken: request.bearerToken)
                for variable in ["refresh_token", "access_token", "id_token"] {
                    ledger.revokeFamily(ofToken: request.parameter(route.carriers[variable]))
                }
            }
            return TestResponse(status: 204)
        case .document:
            return tokenInformation(request, route)
        case .user:
            return userResponse(request, scheme: route.spec.authorizationScheme)
        case .session, .sessionOrUser:
            let user = users.first ?? .demo
            let clientID = routes.inputs["clientID"] ?? "demo-client"
            let tokens = ledger.withLock {
                issue(.init(user: user, family: SimulatorLedger.token("family"), clientID: clientID), in: &$0)
            }
            return session(user: user, tokens: tokens, nonce: nil, clientID: clientID, routes, route)
        }
    }

    // MARK: - Documents

    private func session(
        user: SimulatedUser, tokens: (access: String, refresh: String), nonce: String?, clientID: String,
        _ routes: SimulatorRoutes, _ route: SimulatorRoutes.Route
    ) -> TestResponse {
        let mapping = route.spec.session ?? provider.session
        var document: [String: Any] = [:]
        let now = Int(Date().timeIntervalSince1970)
        JSONPointerWriter.set(tokens.access, at: mapping.accessToken, in: &document)
        JSONPointerWriter.set(tokens.refresh, at: mapping.refreshToken, in: &document)
        JSONPointerWriter.set("Bearer", at: mapping.tokenType, in: &document)
        JSONPointerWriter.set(3600, at: mapping.expiresIn, in: &document)
        JSONPointerWriter.set(now + 3600, at: mapping.expiresAt, in: &document)
        JSONPointerWriter.set("openid profile email", at: mapping.scope, in: &document)
        if mapping.user == "" {
            // The token response is the user document itself (Firebase's `signInWithPassword`).
            for (name, value) in userDocument(user) where document[name] == nil { document[name] = value }
        } else {
            JSONPointerWriter.set(userDocument(user), at: mapping.user, in: &document)
        }
        if provider.tokens.validatesIDToken,
            let idToken = idToken(user: user, nonce: nonce, clientID: clientID, routes: routes, now: now)
        {
            JSONPointerWriter.set(idToken, at: mapping.idToken ?? "/id_token", in: &document)
        }
        return .json(document, headers: [("Cache-Control", "no-store")])
    }

    func userDocument(_ user: SimulatedUser) -> [String: Any] {
        var document: [String: Any] = ["sub": user.id, "email": user.email, "name": user.name]
        let mapping = provider.user
        JSONPointerWriter.set(user.id, at: mapping.id, in: &document)
        JSONPointerWriter.set(user.email, at: mapping.email, in: &document)
        JSONPointerWriter.set(user.name, at: mapping.name, in: &document)
        JSONPointerWriter.set(user.role, at: mapping.role, in: &document)
        JSONPointerWriter.set("openid profile email", at: mapping.scopes, in: &document)
        return document
    }

    private func userResponse(_ request: SimulatorRequest, scheme: String = "Bearer") -> TestResponse {
        guard let grant = ledger.withLock({ $0.grant(forAccessToken: request.authorizationToken(scheme: scheme)) })
        else {
            return error("invalid_token", "A current access token is required.", status: 401)
        }
        return .json(userDocument(grant.user))
    }

    private func protected(_ request: SimulatorRequest) -> TestResponse {
        guard let grant = ledger.withLock({ $0.grant(forAccessToken: request.bearerToken) }) else {
            return error("invalid_token", "A current access token is required.", status: 401)
        }
        return .json(["message": "Hello, \(grant.user.name)"])
    }

    private func idToken(user: SimulatedUser, nonce: String?, clientID: String, routes: SimulatorRoutes, now: Int)
        -> String?
    {
        let header: [String: Any] = ["alg": "RS256", "typ": "JWT", "kid": keyID]
        var claims: [String: Any] = [
            "iss": routes.issuer, "aud": clientID, "sub": user.id, "iat": now, "exp": now + 3600, "email": user.email,
            "name": user.name,
        ]
        if let nonce { claims["nonce"] = nonce }
        // A provider that sends the name in the callback (Apple) leaves it out of the ID token.
        if provider.callback.user != nil { claims["name"] = nil }
        if let template = routes.tenantIssuerTemplate {
            claims["tid"] = SimulatorRoutes.tenantID
            claims["iss"] = template.replacingOccurrences(
                of: IssuerValidation.tenantPlaceholderText, with: SimulatorRoutes.tenantID)
        }
        guard let headerData = try? JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]),
            let claimsData = try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        else { return nil }
        let input = Base64URL.encode(headerData) + "." + Base64URL.encode(claimsData)
        guard let signature = try? signer.sign(Array(input.utf8), algorithm: .rs256) else { return nil }
        return input + "." + Base64URL.encode(signature)
    }
}

/// A ledger step's result: a value, or the error response to send.
enum SimulatorOutcome<Value> {
    case success(Value)
    case failure(TestResponse)
}
