import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// The authenticated routes (`/logout`, `/user`), bearer checks, and the making of users, sessions and tokens.
extension GoTrueState {
    // MARK: - Authenticated routes

    mutating func logout(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let access = try authenticate(request)
        let scope = request.query("scope") ?? ""
        let doomed: [String]
        switch scope {
        case "", "global": doomed = sessions.filter { $0.value == access.userID }.map(\.key)
        case "local": doomed = [access.sessionID]
        case "others": doomed = sessions.filter { $0.value == access.userID && $0.key != access.sessionID }.map(\.key)
        default: throw httpError(request, 400, "validation_failed", "Unsupported logout scope \"\(scope)\"")
        }
        for id in doomed {
            sessions[id] = nil
            refreshTokens = refreshTokens.filter { $0.value.sessionID != id }
        }
        return TestResponse(status: 204)
    }

    mutating func userGet(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let access = try authenticate(request)
        return .json(userJSON(users.first { $0.id == access.userID }!))
    }

    mutating func userUpdate(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let access = try authenticate(request)
        let body = try jsonBody(
            request,
            allowed: [
                "email", "phone", "password", "current_password", "nonce", "data", "app_metadata", "channel",
                "code_challenge", "code_challenge_method",
            ])
        let index = users.firstIndex { $0.id == access.userID }!
        if let nonce = try string(body, "nonce", request), nonces[access.userID] != nonce {
            throw httpError(request, 400, "reauthentication_not_valid", "Requires a valid reauthentication nonce")
        }
        if let data = body["data"] {
            guard let object = data as? [String: Any], let encoded = try? JSONSerialization.data(withJSONObject: object)
            else { throw httpError(request, 400, "bad_json", "Could not parse request body as JSON: data") }
            users[index].metadata = encoded
        }
        if let phone = try string(body, "phone", request), phone != users[index].phone {
            sendMessage(to: phone, type: "phone_change", channel: "sms")
        }
        if let password = try string(body, "password", request) {
            guard password.count >= Self.minimumPasswordLength else { throw weakPassword(request) }
            if password == users[index].password {
                throw httpError(
                    request, 422, "same_password", "New password should be different from the old password.")
            }
            users[index].password = password
        }
        if let email = try string(body, "email", request), email != users[index].email {
            if users.contains(where: { $0.email == email }) {
                throw httpError(
                    request, 422, "email_exists", "A user with this email address has already been registered")
            }
        }
        users[index].updatedAt = now
        return .json(userJSON(users[index]))
    }

    /// `requireAuthentication`: a bearer token of a live session.
    func authenticate(_ request: RecordedRequest) throws(Reject) -> AccessRecord {
        guard let header = request.header("Authorization"), let space = header.firstIndex(of: " "),
            header[..<space].lowercased() == "bearer"
        else {
            throw httpError(request, 401, "no_authorization", "This endpoint requires a valid Bearer token")
        }
        let token = String(header[header.index(after: space)...])
        guard !token.isEmpty, !token.contains(" "), let access = accessTokens[token] else {
            throw httpError(
                request, 403, "bad_jwt", "invalid JWT: unable to parse or verify signature, token is malformed")
        }
        guard access.expiresAt > now else {
            throw httpError(
                request, 403, "bad_jwt",
                "invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired")
        }
        guard sessions[access.sessionID] != nil else {
            throw httpError(request, 403, "session_not_found", "Session from session_id claim in JWT does not exist")
        }
        return access
    }

    // MARK: - Sessions and users

    mutating func createUser(email: String, password: String?, provider: String, confirmed: Bool, name: String?)
        -> String
    {
        let id = Self.uuid()
        users.append(
            UserRecord(
                id: id, email: email, password: password, provider: provider, name: name,
                confirmedAt: confirmed ? now : nil, createdAt: now, updatedAt: now))
        return id
    }

    mutating func newSession(for userID: String) -> [String: Any] {
        let sessionID = Self.uuid()
        sessions[sessionID] = userID
        let refreshToken = newRefreshToken(session: sessionID, parent: nil)
        return sessionBody(userID: userID, sessionID: sessionID, refreshToken: refreshToken)
    }

    mutating func newRefreshToken(session: String, parent: String?) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let token = String((0..<12).map { _ in alphabet.randomElement()! })
        refreshTokens[token] = RefreshRecord(sessionID: session, parent: parent, revoked: false)
        return token
    }

    /// AccessTokenResponse, with a fresh access token.
    mutating func sessionBody(userID: String, sessionID: String, refreshToken: String) -> [String: Any] {
        let index = users.firstIndex { $0.id == userID }!
        users[index].lastSignInAt = now
        let issued = now
        let lifetime: TimeInterval = expiredIssues > 0 ? -60 : 3600
        expiredIssues = max(0, expiredIssues - 1)
        let expires = issued.addingTimeInterval(lifetime)
        let user = users[index]
        let accessToken = accessTokenJWT([
            "iss": base.absoluteString + "/auth/v1", "sub": userID, "aud": "authenticated", "role": "authenticated",
            "email": user.email, "phone": user.phone, "session_id": sessionID, "aal": "aal1",
            "is_anonymous": user.isAnonymous,
            "iat": Int(issued.timeIntervalSince1970), "exp": Int(expires.timeIntervalSince1970),
            "app_metadata": ["provider": user.provider, "providers": [user.provider]],
            "user_metadata": user.name.map { ["full_name": $0] } ?? [String: String](),
        ])
        accessTokens[accessToken] = AccessRecord(sessionID: sessionID, userID: userID, expiresAt: expires)
        return [
            "access_token": accessToken, "token_type": "bearer", "expires_in": Int(lifetime),
            "expires_at": Int(expires.timeIntervalSince1970), "refresh_token": refreshToken, "user": userJSON(user),
        ]
    }

    func userJSON(_ user: UserRecord, identities: Bool = true) -> [String: Any] {
        var json: [String: Any] = [
            "id": user.id, "aud": "authenticated", "role": "authenticated", "email": user.email, "phone": user.phone,
            "app_metadata": ["provider": user.provider, "providers": [user.provider]],
            "user_metadata": metadataJSON(user),
            "identities": identities ? identitiesJSON(user) : [[String: Any]](),
            "created_at": Self.timestamp(user.createdAt), "updated_at": Self.timestamp(user.updatedAt),
            "is_anonymous": user.isAnonymous,
        ]
        if let date = user.confirmedAt {
            json["email_confirmed_at"] = Self.timestamp(date)
            json["confirmed_at"] = Self.timestamp(date)
        }
        if let date = user.confirmationSentAt { json["confirmation_sent_at"] = Self.timestamp(date) }
        if let date = user.recoverySentAt { json["recovery_sent_at"] = Self.timestamp(date) }
        if let date = user.lastSignInAt { json["last_sign_in_at"] = Self.timestamp(date) }
        let factors = factorsJSON(ofUser: user.id)
        if !factors.isEmpty { json["factors"] = factors }
        return json
    }
}
