import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// The email flows: `/signup`, `/recover`, `/resend`, `/otp`, `/verify` (POST and the GET of a link), and the
/// outbox.
extension GoTrueState {
    // MARK: - Email flows

    mutating func signUp(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(
            request,
            allowed: [
                "email", "phone", "password", "data", "channel", "code_challenge", "code_challenge_method",
                "gotrue_meta_security",
            ])
        let email = try string(body, "email", request)
        let phone = try string(body, "phone", request)
        let password = try string(body, "password", request) ?? ""
        let challenge = try pkcePair(body, request)
        let metadata = try captchaAndData(body, request)
        guard let email else {
            if let phone { return try phoneSignUp(body, phone: phone, password: password, metadata: metadata, request) }
            let id = createUser(email: "", password: nil, provider: "anonymous", confirmed: true, name: nil)
            let index = users.firstIndex { $0.id == id }!
            users[index].isAnonymous = true
            users[index].metadata = metadata
            return .json(newSession(for: id))
        }
        guard !password.isEmpty else {
            throw httpError(request, 400, "validation_failed", "Signup requires a valid password")
        }
        guard email.contains("@") else {
            throw httpError(request, 400, "validation_failed", "Unable to validate email address: invalid format")
        }
        guard password.count >= Self.minimumPasswordLength else {
            throw weakPassword(request)
        }
        if let existing = users.firstIndex(where: { $0.email == email }) {
            if users[existing].confirmedAt != nil {
                if autoconfirm { throw httpError(request, 422, "user_already_exists", "User already registered") }
                // Obfuscated: a fake user, so that sign-up does not reveal who has an account.
                var fake = users[existing]
                fake.id = Self.uuid()
                return .json(userJSON(fake, identities: false))
            }
            users[existing].password = password
            sendEmail(to: existing, type: "signup", redirect: request.query("redirect_to"), challenge: challenge)
            return .json(userJSON(users[existing]))
        }
        let id = createUser(email: email, password: password, provider: "email", confirmed: autoconfirm, name: nil)
        let index = users.firstIndex { $0.id == id }!
        users[index].metadata = metadata
        if autoconfirm { return .json(newSession(for: id)) }
        sendEmail(to: index, type: "signup", redirect: request.query("redirect_to"), challenge: challenge)
        return .json(userJSON(users[index]))
    }

    mutating func recover(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(
            request, allowed: ["email", "code_challenge", "code_challenge_method", "gotrue_meta_security"])
        let email = try string(body, "email", request) ?? ""
        let challenge = try pkcePair(body, request)
        _ = try captchaAndData(body, request)
        guard !email.isEmpty else {
            throw httpError(request, 400, "validation_failed", "Password recovery requires an email")
        }
        if let index = users.firstIndex(where: { $0.email == email }) {
            users[index].recoverySentAt = now
            sendEmail(to: index, type: "recovery", redirect: request.query("redirect_to"), challenge: challenge)
        }
        return .json([String: Any]())
    }

    mutating func resend(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(
            request,
            allowed: ["type", "email", "phone", "code_challenge", "code_challenge_method", "gotrue_meta_security"])
        let type = try string(body, "type", request) ?? ""
        let email = try string(body, "email", request)
        let phone = try string(body, "phone", request)
        let challenge = try pkcePair(body, request)
        _ = try captchaAndData(body, request)
        guard ["signup", "email_change", "sms", "phone_change"].contains(type) else {
            throw httpError(
                request, 400, "validation_failed", "Missing one of these types: signup, email_change, sms, phone_change"
            )
        }
        if email != nil, phone != nil {
            throw httpError(
                request, 400, "validation_failed", "Only an email address or phone number should be provided.")
        }
        if let phone, ["sms", "phone_change"].contains(type) { return try resendPhone(phone: phone, type: type) }
        if ["signup", "email_change"].contains(type), email == nil {
            throw httpError(request, 400, "validation_failed", "Type provided requires an email address")
        }
        if type == "signup", let index = users.firstIndex(where: { $0.email == email }), users[index].confirmedAt == nil
        {
            sendEmail(to: index, type: "signup", redirect: request.query("redirect_to"), challenge: challenge)
        }
        return .json([String: Any]())
    }

    /// `POST /otp` (otp.go, magic_link.go): a magic link to a known address; an unknown one is signed up first
    /// (a confirmation email) unless `create_user` is false.
    mutating func otp(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(
            request,
            allowed: [
                "email", "phone", "create_user", "data", "channel", "code_challenge", "code_challenge_method",
                "gotrue_meta_security",
            ])
        let email = try string(body, "email", request) ?? ""
        let challenge = try pkcePair(body, request)
        let metadata = try captchaAndData(body, request)
        let shouldCreate: Bool
        switch body["create_user"] {
        case nil, is NSNull: shouldCreate = true
        case let flag as Bool: shouldCreate = flag
        default:
            throw httpError(
                request, 400, "bad_json",
                "Could not parse request body as JSON: json: cannot unmarshal into Go struct field create_user of type bool"
            )
        }
        if email.isEmpty, let phone = try string(body, "phone", request) {
            return try phoneOtp(body, phone: phone, shouldCreate: shouldCreate, metadata: metadata, request)
        }
        guard !email.isEmpty else {
            throw httpError(
                request, 400, "validation_failed", "Only an email address or phone number should be provided")
        }
        if let index = users.firstIndex(where: { $0.email == email }) {
            sendEmail(to: index, type: "magiclink", redirect: request.query("redirect_to"), challenge: challenge)
            return .json([String: Any]())
        }
        guard shouldCreate else { throw httpError(request, 422, "otp_disabled", "Signups not allowed for otp") }
        let id = createUser(email: email, password: nil, provider: "email", confirmed: false, name: nil)
        let index = users.firstIndex { $0.id == id }!
        users[index].metadata = metadata
        sendEmail(to: index, type: "signup", redirect: request.query("redirect_to"), challenge: challenge)
        return .json([String: Any]())
    }

    mutating func verify(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(
            request, allowed: ["type", "token", "token_hash", "email", "phone", "redirect_to", "gotrue_meta_security"])
        _ = try captchaAndData(body, request)
        let type = try string(body, "type", request) ?? ""
        let token = try string(body, "token", request) ?? ""
        let tokenHash = try string(body, "token_hash", request) ?? ""
        let email = try string(body, "email", request) ?? ""
        let phone = try string(body, "phone", request) ?? ""
        guard !type.isEmpty else {
            throw httpError(request, 400, "validation_failed", "Verify requires a verification type")
        }
        guard !token.isEmpty || !tokenHash.isEmpty else {
            throw httpError(request, 400, "validation_failed", "Verify requires either a token or a token hash")
        }
        if !tokenHash.isEmpty, !token.isEmpty || !email.isEmpty || !phone.isEmpty {
            throw httpError(request, 400, "validation_failed", "Only the token_hash and type should be provided")
        }
        let types = ["signup", "invite", "recovery", "magiclink", "email_change", "email", "sms", "phone_change"]
        guard types.contains(type) else {
            throw httpError(request, 400, "validation_failed", "Unsupported verification type")
        }
        let accepts: (OTP) -> Bool = { otp in
            !otp.used && (otp.type == type || (type == "email" && ["signup", "magiclink"].contains(otp.type)))
        }
        if !phone.isEmpty, email.isEmpty, tokenHash.isEmpty {
            return try verifyPhone(phone: phone, token: token, type: type, request)
        }
        let index: Int?
        if tokenHash.isEmpty {
            guard !email.isEmpty, phone.isEmpty else {
                throw httpError(
                    request, 400, "validation_failed",
                    "Only an email address or phone number should be provided on verify")
            }
            index = otps.firstIndex { accepts($0) && $0.email == email && $0.token == token }
            guard index != nil else { throw httpError(request, 403, "otp_expired", "Token has expired or is invalid") }
        } else {
            index = otps.firstIndex { accepts($0) && $0.tokenHash == tokenHash }
            guard index != nil else {
                throw httpError(request, 403, "otp_expired", "Email link is invalid or has expired")
            }
        }
        otps[index!].used = true
        if let answer = secureEmailChange(verified: otps[index!]) { return answer }
        let user = users.firstIndex { $0.email == otps[index!].email }!
        users[user].confirmedAt = users[user].confirmedAt ?? now
        return .json(newSession(for: users[user].id))
    }

    /// `GET /verify` from an email link: 303 to the app with `?code=` (PKCE) or the session in the fragment.
    mutating func verifyLink(_ request: RecordedRequest) -> TestResponse {
        let type = request.query("type") ?? ""
        let token = request.query("token") ?? ""
        let redirect = allowedRedirect(request.query("redirect_to"))
        let isPKCE = token.hasPrefix("pkce_")
        let hash = isPKCE ? String(token.dropFirst(5)) : token
        guard let index = otps.firstIndex(where: { !$0.used && $0.type == type && $0.tokenHash == hash }) else {
            let pairs = [
                ("error", "access_denied"), ("error_code", "otp_expired"),
                ("error_description", "Email link is invalid or has expired"),
            ]
            let query = isPKCE ? Self.appending(pairs, to: redirect) : redirect
            return .redirect(to: query + "#" + Self.encode(pairs + [("sb", "")]), status: 303)
        }
        otps[index].used = true
        let user = users.firstIndex { $0.email == otps[index].email }!
        users[user].confirmedAt = users[user].confirmedAt ?? now
        if isPKCE, let flowID = otps[index].flowStateID, let flow = flowStates.firstIndex(where: { $0.id == flowID }) {
            flowStates[flow].codeIssued = true
            return .redirect(to: Self.appending([("code", flowStates[flow].authCode)], to: redirect), status: 303)
        }
        let session = newSession(for: users[user].id)
        let pairs: [(String, String)] = [
            ("access_token", session["access_token"] as! String), ("expires_at", "\(session["expires_at"]!)"),
            ("expires_in", "3600"), ("refresh_token", session["refresh_token"] as! String), ("token_type", "bearer"),
            ("type", type),
        ]
        return .redirect(to: redirect + "#" + Self.encode(pairs), status: 303)
    }

    /// Records an email with a code, a hash and a link; with a PKCE challenge, a flow state for the link.
    mutating func sendEmail(to index: Int, type: String, redirect: String?, challenge: (String, String)?) {
        let token = String(format: "%06d", Int.random(in: 0..<1_000_000))
        let tokenHash = GoTrueServer.sha256Hex(users[index].email + token)
        let target = allowedRedirect(redirect)
        var flowID: String?
        if let (challenge, method) = challenge {
            let flow = FlowState(
                id: Self.uuid(), authCode: Self.uuid(), challenge: challenge, method: method, provider: "email",
                authenticationMethod: type, redirectTo: target, userID: users[index].id, codeIssued: false,
                callbackUsed: false, createdAt: now)
            flowStates.append(flow)
            flowID = flow.id
        }
        otps.append(
            OTP(
                email: users[index].email, type: type, token: token, tokenHash: tokenHash, used: false,
                flowStateID: flowID))
        if type == "signup" { users[index].confirmationSentAt = now }
        let linkToken = flowID == nil ? tokenHash : "pkce_" + tokenHash
        let link = URL(
            string: base.absoluteString + "/auth/v1/verify?"
                + Self.encode([("token", linkToken), ("type", type), ("redirect_to", target)]))!
        outbox.append(
            GoTrueServer.Email(to: users[index].email, type: type, token: token, tokenHash: tokenHash, link: link))
    }

    /// `code_challenge` and `code_challenge_method`: both or neither (pkce.go).
    func pkcePair(_ body: [String: Any], _ request: RecordedRequest) throws(Reject) -> (String, String)? {
        let challenge = try string(body, "code_challenge", request) ?? ""
        let method = (try string(body, "code_challenge_method", request) ?? "").lowercased()
        guard challenge.isEmpty == method.isEmpty else {
            throw httpError(
                request, 400, "validation_failed", "PKCE flow requires code_challenge_method and code_challenge")
        }
        if challenge.isEmpty { return nil }
        guard (43...128).contains(challenge.count), ["s256", "plain"].contains(method) else {
            throw httpError(request, 400, "validation_failed", "code challenge does not match the required format")
        }
        return (challenge, method)
    }
}
