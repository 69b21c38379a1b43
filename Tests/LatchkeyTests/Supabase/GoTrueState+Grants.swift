import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// `POST /token`: the password, refresh-token (rotation and reuse), PKCE and ID-token grants.
extension GoTrueState {
    // MARK: - /token

    mutating func token(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        // grant_type is r.FormValue: the query (a form body would fail JSON parsing anyway).
        switch request.query("grant_type") ?? "" {
        case "password": return try passwordGrant(request)
        case "refresh_token": return try refreshGrant(request)
        case "pkce": return try pkceGrant(request)
        case "id_token": return try idTokenGrant(request)
        case "web3": return try web3Grant(request)
        default: throw httpError(request, 400, "invalid_credentials", "unsupported_grant_type")
        }
    }

    mutating func passwordGrant(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(request, allowed: ["email", "phone", "password", "gotrue_meta_security"])
        let email = try string(body, "email", request)
        let phone = try string(body, "phone", request)
        let password = try string(body, "password", request) ?? ""
        if email != nil, phone != nil {
            throw httpError(
                request, 400, "validation_failed", "Only an email address or phone number should be provided on login.")
        }
        _ = try captchaAndData(body, request)
        guard let email else {
            guard let phone else { throw httpError(request, 400, "validation_failed", "missing email or phone") }
            guard let index = users.firstIndex(where: { $0.phone == phone && !phone.isEmpty }),
                users[index].password == password
            else { throw httpError(request, 400, "invalid_credentials", "Invalid login credentials") }
            guard users[index].confirmedAt != nil else {
                throw httpError(request, 400, "phone_not_confirmed", "Phone not confirmed")
            }
            return .json(newSession(for: users[index].id))
        }
        guard let index = users.firstIndex(where: { $0.email == email }), let stored = users[index].password,
            stored == password
        else {
            throw httpError(request, 400, "invalid_credentials", "Invalid login credentials")
        }
        guard users[index].confirmedAt != nil else {
            throw httpError(request, 400, "email_not_confirmed", "Email not confirmed")
        }
        return .json(newSession(for: users[index].id))
    }

    mutating func refreshGrant(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(request, allowed: ["refresh_token"])
        let token = try string(body, "refresh_token", request) ?? ""
        // RefreshTokenGrantParams.Validate: this server issues legacy 12-character tokens only.
        guard token.count == 12, token.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) }) else {
            throw httpError(request, 400, "validation_failed", "Refresh token is not valid")
        }
        guard var record = refreshTokens[token] else {
            throw httpError(request, 400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
        }
        guard let userID = sessions[record.sessionID] else {
            throw httpError(request, 400, "session_not_found", "Invalid Refresh Token: No Valid Session Found")
        }
        if !record.revoked {
            record.revoked = true
            refreshTokens[token] = record
            let child = newRefreshToken(session: record.sessionID, parent: token)
            return .json(sessionBody(userID: userID, sessionID: record.sessionID, refreshToken: child))
        }
        // Revoked: the parent of the active token means "the client could not store the result".
        if let active = refreshTokens.first(where: { $0.value.sessionID == record.sessionID && !$0.value.revoked }),
            active.value.parent == token
        {
            return .json(sessionBody(userID: userID, sessionID: record.sessionID, refreshToken: active.key))
        }
        // Reuse outside the allowance (interval 0): revoke the whole family.
        for (key, value) in refreshTokens where value.sessionID == record.sessionID {
            refreshTokens[key]?.revoked = true
        }
        throw httpError(request, 400, "refresh_token_already_used", "Invalid Refresh Token: Already Used")
    }

    mutating func pkceGrant(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(request, allowed: ["auth_code", "code_verifier"])
        let code = try string(body, "auth_code", request) ?? ""
        let verifier = try string(body, "code_verifier", request) ?? ""
        guard !code.isEmpty, !verifier.isEmpty else {
            throw httpError(
                request, 400, "validation_failed",
                "invalid request: both auth code and code verifier should be non-empty")
        }
        guard let index = flowStates.firstIndex(where: { $0.authCode == code }), flowStates[index].codeIssued,
            let userID = flowStates[index].userID
        else {
            throw httpError(request, 404, "flow_state_not_found", "invalid flow state, no valid flow state found")
        }
        let flow = flowStates[index]
        if now.timeIntervalSince(flow.createdAt) > Self.flowStateLifetime {
            throw httpError(request, 422, "flow_state_expired", "invalid flow state, flow state has expired")
        }
        let matches: Bool
        switch flow.method {
        case "s256": matches = PKCE.challenge(for: verifier) == flow.challenge
        case "plain": matches = verifier == flow.challenge
        default: throw httpError(request, 400, "bad_code_verifier", "code challenge method not supported")
        }
        guard matches else {
            throw httpError(
                request, 400, "bad_code_verifier", "code challenge does not match previously saved code verifier")
        }
        flowStates.remove(at: index)
        return .json(newSession(for: userID))
    }

    mutating func idTokenGrant(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(
            request,
            allowed: [
                "id_token", "access_token", "nonce", "provider", "client_id", "issuer", "link_identity",
                "gotrue_meta_security",
            ])
        let idToken = try string(body, "id_token", request) ?? ""
        let provider = try string(body, "provider", request) ?? ""
        let nonce = try string(body, "nonce", request) ?? ""
        _ = try string(body, "access_token", request)
        guard !idToken.isEmpty else { throw oauthError("invalid request", "id_token required") }
        guard !provider.isEmpty else {
            throw oauthError("invalid request", "provider or client_id and issuer required")
        }
        guard let issuer = GoTrueServer.issuers[provider] else {
            throw httpError(request, 400, "validation_failed", "Custom OIDC provider \"\(provider)\" not allowed")
        }
        guard let claims = GoTrueServer.claims(of: idToken), claims["iss"] as? String == issuer else {
            throw oauthError("invalid request", "Bad ID token")
        }
        guard let sub = claims["sub"] as? String, !sub.isEmpty else {
            throw oauthError("invalid request", "Missing sub claim in id_token")
        }
        let tokenNonce = claims["nonce"] as? String ?? ""
        if nonce.isEmpty != tokenNonce.isEmpty {
            throw oauthError("invalid request", "Passed nonce and nonce in id_token should either both exist or not.")
        }
        if !nonce.isEmpty, GoTrueServer.sha256Hex(nonce) != tokenNonce, nonce != tokenNonce {
            throw oauthError("invalid nonce", "Nonces mismatch")
        }
        let email = claims["email"] as? String ?? "\(sub)@\(provider).invalid"
        if body["link_identity"] as? Bool == true {
            return try linkIdentityWithIdToken(request, provider: provider, subject: sub, email: email)
        }
        let userID =
            users.first(where: { $0.email == email })?.id
            ?? createUser(email: email, password: nil, provider: provider, confirmed: true, name: nil)
        return .json(newSession(for: userID))
    }
}
