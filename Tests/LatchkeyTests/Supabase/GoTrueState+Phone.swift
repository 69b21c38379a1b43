import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// Phone numbers (sign-up, password grant, OTP by SMS or WhatsApp, verify, resend), anonymous users, CAPTCHA
/// tokens, user metadata and `GET /reauthenticate` (signup.go, otp.go, verify.go, resend.go, reauthenticate.go).
extension GoTrueState {
    /// `gotrue_meta_security.captcha_token` (recorded) and `data` (returned as JSON), checked for their types.
    mutating func captchaAndData(_ body: [String: Any], _ request: RecordedRequest) throws(Reject) -> Data? {
        if let security = body["gotrue_meta_security"] {
            guard let object = security as? [String: Any], Set(object.keys).isSubset(of: ["captcha_token"]),
                let token = object["captcha_token"] as? String
            else {
                throw httpError(request, 400, "bad_json", "Could not parse request body as JSON: gotrue_meta_security")
            }
            captchaTokens.append(token)
        }
        guard let data = body["data"], !(data is NSNull) else { return nil }
        guard let object = data as? [String: Any], let encoded = try? JSONSerialization.data(withJSONObject: object)
        else { throw httpError(request, 400, "bad_json", "Could not parse request body as JSON: data") }
        return encoded
    }

    /// `user_metadata`: the name (when known), with the stored `data` over it.
    func metadataJSON(_ user: UserRecord) -> [String: Any] {
        var metadata: [String: Any] = user.name.map { ["full_name": $0, "email": user.email] } ?? [:]
        if let data = user.metadata, let stored = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] {
            metadata.merge(stored) { _, new in new }
        }
        return metadata
    }

    /// The messaging channel of a body: `sms` (the default) or `whatsapp`.
    func channel(_ body: [String: Any], _ request: RecordedRequest) throws(Reject) -> String {
        let channel = try string(body, "channel", request) ?? "sms"
        guard ["sms", "whatsapp"].contains(channel) else {
            throw httpError(request, 400, "validation_failed", "Invalid channel: must be sms or whatsapp")
        }
        return channel
    }

    mutating func sendMessage(to phone: String, type: String, channel: String) {
        let token = String(format: "%06d", Int.random(in: 0..<1_000_000))
        otps.append(
            OTP(email: phone, type: type, token: token, tokenHash: Self.uuid(), used: false, flowStateID: nil))
        messages.append(GoTrueServer.Message(to: phone, type: type, channel: channel, token: token))
    }

    mutating func phoneSignUp(
        _ body: [String: Any], phone: String, password: String, metadata: Data?, _ request: RecordedRequest
    ) throws(Reject) -> TestResponse {
        let channel = try channel(body, request)
        if body["code_challenge"] != nil {
            throw httpError(request, 400, "validation_failed", "PKCE not supported for phone signups")
        }
        guard password.count >= Self.minimumPasswordLength else { throw weakPassword(request) }
        guard !users.contains(where: { $0.phone == phone }) else {
            throw httpError(request, 422, "user_already_exists", "User already registered")
        }
        let id = createUser(email: "", password: password, provider: "phone", confirmed: autoconfirm, name: nil)
        let index = users.firstIndex { $0.id == id }!
        users[index].phone = phone
        users[index].metadata = metadata
        if autoconfirm { return .json(newSession(for: id)) }
        sendMessage(to: phone, type: "sms", channel: channel)
        return .json(userJSON(users[index]))
    }

    mutating func phoneOtp(
        _ body: [String: Any], phone: String, shouldCreate: Bool, metadata: Data?, _ request: RecordedRequest
    ) throws(Reject) -> TestResponse {
        let channel = try channel(body, request)
        if !users.contains(where: { $0.phone == phone }) {
            guard shouldCreate else { throw httpError(request, 422, "otp_disabled", "Signups not allowed for otp") }
            let id = createUser(email: "", password: nil, provider: "phone", confirmed: false, name: nil)
            let index = users.firstIndex { $0.id == id }!
            users[index].phone = phone
            users[index].metadata = metadata
        }
        sendMessage(to: phone, type: "sms", channel: channel)
        return .json(["message_id": "SM\(messages.count)"])
    }

    mutating func resendPhone(phone: String, type: String) throws(Reject) -> TestResponse {
        guard users.contains(where: { $0.phone == phone }) else { return .json([String: Any]()) }
        sendMessage(to: phone, type: type, channel: "sms")
        return .json(["message_id": "SM\(messages.count)"])
    }

    mutating func verifyPhone(phone: String, token: String, type: String, _ request: RecordedRequest) throws(Reject)
        -> TestResponse
    {
        guard ["sms", "phone_change"].contains(type),
            let index = otps.firstIndex(where: { !$0.used && $0.type == type && $0.email == phone && $0.token == token }
            )
        else { throw httpError(request, 403, "otp_expired", "Token has expired or is invalid") }
        otps[index].used = true
        guard let user = users.firstIndex(where: { $0.phone == phone }) else {
            throw httpError(request, 403, "otp_expired", "Token has expired or is invalid")
        }
        users[user].confirmedAt = users[user].confirmedAt ?? now
        return .json(newSession(for: users[user].id))
    }

    /// `GET /reauthenticate`: a nonce for the signed-in user, by email (or SMS).
    mutating func reauthenticate(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let access = try authenticate(request)
        guard request.body.isEmpty else { throw httpError(request, 400, "bad_json", "no body expected") }
        nonces[access.userID] = String(format: "%06d", Int.random(in: 0..<1_000_000))
        return .json([String: Any]())
    }
}
