import Foundation
@_spi(Generated) import LatchkeyRuntime

/// The token endpoints of the simulator: code exchange, refresh, password, device code and generic requests.
extension SimulatorCore {
    // MARK: - Tokens

    func exchange(
        _ request: SimulatorRequest, _ route: SimulatorRoutes.Route, _ routes: SimulatorRoutes, proofKey: String?
    ) -> TestResponse {
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
            if let bound = record.dpopJKT, bound != proofKey {
                return .failure(
                    error("invalid_dpop_proof", "The proof's key is not the request's dpop_jkt.", status: 400))
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
            let grant = SimulatorLedger.Grant(user: record.user, family: family, clientID: record.clientID)
            let tokens = issue(grant, in: &ledger, boundTo: proofKey)
            return .success((record.user, record.nonce, record.clientID, tokens))
        }
        switch outcome {
        case .failure(let response): return response
        case .success(let (user, nonce, clientID, tokens)):
            return session(user: user, tokens: tokens, nonce: nonce, clientID: clientID, routes, route)
        }
    }

    func refresh(
        _ request: SimulatorRequest, _ route: SimulatorRoutes.Route, _ routes: SimulatorRoutes, proofKey: String?
    ) -> TestResponse {
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
            // A refresh token bound to a key (RFC 9449 §5) is refreshed only with a proof of that key.
            if let bound = ledger.senderConstraint.bindings[token], bound != proofKey {
                return .failure(
                    error("invalid_dpop_proof", "The refresh token is bound to another DPoP key.", status: 400))
            }
            ledger.refreshTokens[token] = (entry.grant, true)
            return .success((entry.grant, issue(entry.grant, in: &ledger, boundTo: proofKey)))
        }
        switch outcome {
        case .failure(let response): return response
        case .success(let (grant, tokens)):
            return session(user: grant.user, tokens: tokens, nonce: nil, clientID: grant.clientID, routes, route)
        }
    }

    func password(
        _ request: SimulatorRequest, _ route: SimulatorRoutes.Route, _ routes: SimulatorRoutes, proofKey: String?
    ) -> TestResponse {
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
            issue(
                .init(user: user, family: SimulatorLedger.token("family"), clientID: clientID), in: &$0,
                boundTo: proofKey)
        }
        return session(user: user, tokens: tokens, nonce: nil, clientID: clientID, routes, route)
    }

    func deviceAuthorization(_ routes: SimulatorRoutes) -> TestResponse {
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

    func deviceToken(
        _ request: SimulatorRequest, _ route: SimulatorRoutes.Route, _ routes: SimulatorRoutes, proofKey: String?
    ) -> TestResponse {
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
            return .success((record.user, issue(grant, in: &ledger, boundTo: proofKey)))
        }
        switch outcome {
        case .failure(let response): return response
        case .success(let (user, tokens)):
            return session(user: user, tokens: tokens, nonce: nil, clientID: clientID, routes, route)
        }
    }

    func generic(_ request: SimulatorRequest, _ route: SimulatorRoutes.Route, _ routes: SimulatorRoutes)
        -> TestResponse
    {
        switch route.spec.response {
        case .none:
            ledger.withLock { ledger in
                ledger.revokeFamily(
                    ofToken: request.authorizationToken(scheme: route.spec.authorizationScheme)
                        ?? request.authorizationToken(scheme: "DPoP"))
                for variable in ["refresh_token", "access_token", "id_token"] {
                    ledger.revokeFamily(ofToken: request.parameter(route.carriers[variable]))
                }
            }
            return TestResponse(status: 204)
        case .document:
            return tokenInformation(request, route)
        case .user:
            return userResponse(request, scheme: route.spec.authorizationScheme)
        case .session, .sessionOrUser, .sessionOrDocument:
            let user = users.first ?? .demo
            let clientID = routes.inputs["clientID"] ?? "demo-client"
            let tokens = ledger.withLock {
                issue(.init(user: user, family: SimulatorLedger.token("family"), clientID: clientID), in: &$0)
            }
            return session(user: user, tokens: tokens, nonce: nil, clientID: clientID, routes, route)
        }
    }
}
