import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens

/// MFA factors and challenges (`/factors…`), the JWKS, and asymmetric access tokens, as GoTrue serves them
/// (`internal/api/mfa.go`): a verified challenge gives a new session at `aal2` with the method in `amr`.
struct GoTrueSubClientState: Sendable {
    struct Factor: Sendable {
        var id: String
        var userID: String
        var type: String
        var friendlyName: String?
        var status: String
        var phone: String?
        /// The code a TOTP authenticator shows now (fixed per factor here).
        var totpCode: String
    }

    struct Challenge: Sendable {
        var id: String
        var factorID: String
        var code: String
        var used: Bool
    }

    var factors: [Factor] = []
    var challenges: [Challenge] = []
    /// The assurance level and methods of each session, by session id (absent: `aal1`, password).
    var levels: [String: (aal: String, amr: [Method])] = [:]

    /// One `amr` entry.
    struct Method: Sendable {
        var method: String
        var timestamp: Int
    }
    /// When set, access tokens are ES256 JWTs signed with this key (`kid` ``keyID``) and the JWKS lists it.
    var signer: TestSigner?
    var keyID = "gotrue-es256-1"
    var passkeys = GoTrueState.PasskeyStore()
}

extension GoTrueState {
    /// The routes of this file: `/factors…`, `/passkeys…` and the JWKS; `nil` for any other route.
    static func isSubClientRoute(_ route: String) -> Bool {
        route.hasPrefix("/factors") || route.hasPrefix("/passkeys/") || route == "/.well-known/jwks.json"
    }

    mutating func subClientRoute(_ request: RecordedRequest, _ route: String) throws(Reject) -> TestResponse {
        if route == "/.well-known/jwks.json", request.method == "GET" { return jwks() }
        if route.hasPrefix("/passkeys/") { return try passkeyRoute(request, route) }
        let parts = route.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // ["", "factors"], ["", "factors", id], ["", "factors", id, "challenge" | "verify"]
        switch (request.method, parts.count, parts.last) {
        case ("POST", 2, _): return try enrollFactor(request)
        case ("POST", 4, "challenge"): return try challengeFactor(request, factorID: parts[2])
        case ("POST", 4, "verify"): return try verifyFactor(request, factorID: parts[2])
        case ("DELETE", 3, _): return try unenrollFactor(request, factorID: parts[2])
        default: return .text("404 page not found", status: 404)
        }
    }

    private func jwks() -> TestResponse {
        guard let signer = subClients.signer else { return .json(["keys": [[String: Any]]()]) }
        var jwk: [String: Any] = signer.publicJWK(keyID: subClients.keyID, algorithm: .es256)
        jwk["use"] = "sig"
        return .json(["keys": [jwk]])
    }

    private mutating func enrollFactor(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let access = try authenticate(request)
        let body = try jsonBody(request, allowed: ["factor_type", "friendly_name", "issuer", "phone"])
        let type = try string(body, "factor_type", request) ?? ""
        let name = try string(body, "friendly_name", request)
        guard ["totp", "phone", "webauthn"].contains(type) else {
            throw httpError(request, 400, "validation_failed", "factor_type needs to be totp, phone or webauthn")
        }
        let phone = try string(body, "phone", request)
        if type == "phone", phone?.hasPrefix("+") != true {
            throw httpError(request, 400, "validation_failed", "Invalid phone number format (E.164 required)")
        }
        let factor = GoTrueSubClientState.Factor(
            id: Self.uuid(), userID: access.userID, type: type, friendlyName: name, status: "unverified", phone: phone,
            totpCode: String(format: "%06d", Int.random(in: 0...999_999)))
        subClients.factors.append(factor)
        var answer: [String: Any] = ["id": factor.id, "type": type, "friendly_name": name ?? ""]
        switch type {
        case "totp":
            let issuer = try string(body, "issuer", request) ?? base.host ?? ""
            answer["totp"] = [
                "qr_code": "data:image/svg+xml;utf-8,<svg/>", "secret": "JBSWY3DPEHPK3PXP",
                "uri": "otpauth://totp/\(issuer):user?secret=JBSWY3DPEHPK3PXP&issuer=\(issuer)",
            ]
        case "phone": answer["phone"] = phone
        default: break
        }
        return .json(answer)
    }

    private mutating func challengeFactor(_ request: RecordedRequest, factorID: String) throws(Reject) -> TestResponse {
        let access = try authenticate(request)
        // supabase-swift sends no body when there is no channel or relying party.
        let body = request.body.isEmpty ? [:] : try jsonBody(request, allowed: ["channel", "webauthn"])
        guard let factor = subClients.factors.first(where: { $0.id == factorID && $0.userID == access.userID })
        else { throw httpError(request, 404, "mfa_factor_not_found", "Factor not found") }
        let channel = try string(body, "channel", request)
        if channel != nil, factor.type != "phone" {
            throw httpError(request, 400, "validation_failed", "channel is only for phone factors")
        }
        var code = factor.totpCode
        if factor.type == "phone" {
            code = String(format: "%06d", Int.random(in: 0...999_999))
            messages.append(
                GoTrueServer.Message(
                    to: factor.phone ?? "", type: "mfa", channel: channel ?? "sms", token: code))
        }
        let challenge = GoTrueSubClientState.Challenge(id: Self.uuid(), factorID: factorID, code: code, used: false)
        subClients.challenges.append(challenge)
        var answer: [String: Any] = [
            "id": challenge.id, "type": factor.type, "expires_at": Int(now.timeIntervalSince1970) + 300,
        ]
        if factor.type == "webauthn" {
            // GoTrue: an unverified factor registers a credential (creation options), a verified one asserts.
            answer["webauthn"] =
                factor.status == "verified"
                ? ["type": "request", "credential_options": assertionOptions()]
                : ["type": "create", "credential_options": creationOptions(userID: access.userID)]
        }
        return .json(answer)
    }

    private mutating func verifyFactor(_ request: RecordedRequest, factorID: String) throws(Reject) -> TestResponse {
        let access = try authenticate(request)
        let body = try jsonBody(request, allowed: ["factor_id", "challenge_id", "code", "webauthn"])
        guard
            let factorIndex = subClients.factors.firstIndex(where: { $0.id == factorID && $0.userID == access.userID })
        else { throw httpError(request, 404, "mfa_factor_not_found", "Factor not found") }
        guard try string(body, "factor_id", request) == factorID,
            let challengeID = try string(body, "challenge_id", request),
            let challengeIndex = subClients.challenges.firstIndex(where: {
                $0.id == challengeID && $0.factorID == factorID && !$0.used
            })
        else { throw httpError(request, 404, "mfa_challenge_not_found", "Challenge not found") }
        let factor = subClients.factors[factorIndex]
        if factor.type == "webauthn" {
            let response = (body["webauthn"] as? [String: Any])?["credential_response"] as? [String: Any]
            guard response?["id"] is String else {
                throw httpError(request, 422, "mfa_verification_failed", "Invalid WebAuthn credential response")
            }
        } else {
            guard try string(body, "code", request) == subClients.challenges[challengeIndex].code else {
                throw httpError(request, 422, "mfa_verification_failed", "Invalid MFA Phone or TOTP code entered")
            }
        }
        subClients.challenges[challengeIndex].used = true
        subClients.factors[factorIndex].status = "verified"
        let method = factor.type
        let password = GoTrueSubClientState.Method(method: "password", timestamp: Int(now.timeIntervalSince1970))
        let earlier = subClients.levels[access.sessionID]?.amr ?? [password]
        let used = GoTrueSubClientState.Method(method: method, timestamp: Int(now.timeIntervalSince1970))
        subClients.levels[access.sessionID] = ("aal2", [used] + earlier)
        let refreshToken = newRefreshToken(session: access.sessionID, parent: nil)
        return .json(sessionBody(userID: access.userID, sessionID: access.sessionID, refreshToken: refreshToken))
    }

    private mutating func unenrollFactor(_ request: RecordedRequest, factorID: String) throws(Reject) -> TestResponse {
        let access = try authenticate(request)
        guard let index = subClients.factors.firstIndex(where: { $0.id == factorID && $0.userID == access.userID })
        else { throw httpError(request, 404, "mfa_factor_not_found", "Factor not found") }
        if subClients.factors[index].status == "verified", subClients.levels[access.sessionID]?.aal != "aal2" {
            throw httpError(request, 403, "insufficient_aal", "AAL2 required to unenroll verified factor")
        }
        subClients.factors.remove(at: index)
        return .json(["id": factorID])
    }

    static func amrEntry(_ method: String, at date: Date) -> [String: Any] {
        ["method": method, "timestamp": Int(date.timeIntervalSince1970)]
    }

    // MARK: - Hooks used by the session and user documents

    /// An access token with these claims, with the session's level and methods: ES256-signed when a signer is
    /// set, else GoTrue's HS256 shape (a random signature here).
    func accessTokenJWT(_ claims: [String: Any]) -> String {
        var claims = claims
        let sessionID = claims["session_id"] as? String ?? ""
        let level = subClients.levels[sessionID]
        claims["aal"] = level?.aal ?? "aal1"
        claims["amr"] =
            level?.amr.map { ["method": $0.method, "timestamp": $0.timestamp] as [String: Any] }
            ?? [Self.amrEntry("password", at: now)]
        guard let signer = subClients.signer else { return GoTrueServer.jwt(claims) }
        return GoTrueServer.signedJWT(claims, signer: signer, keyID: subClients.keyID)
    }

    /// The user's factors, as GoTrue lists them in the user document.
    func factorsJSON(ofUser id: String) -> [[String: Any]] {
        subClients.factors.filter { $0.userID == id }.map { factor in
            var json: [String: Any] = [
                "id": factor.id, "factor_type": factor.type, "status": factor.status,
                "friendly_name": factor.friendlyName ?? "", "created_at": Self.timestamp(now),
                "updated_at": Self.timestamp(now),
            ]
            if let phone = factor.phone { json["phone"] = phone }
            return json
        }
    }
}

extension GoTrueServer {
    /// An ES256 JWT signed with `signer`.
    static func signedJWT(_ claims: [String: Any], signer: TestSigner, keyID: String?) -> String {
        var header: [String: Any] = ["alg": "ES256", "typ": "JWT"]
        if let keyID { header["kid"] = keyID }
        let headerData = try! JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
        let payload = try! JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        let input = Base64URL.encode(headerData) + "." + Base64URL.encode(payload)
        let signature = try! signer.sign(Array(input.utf8), algorithm: .es256)
        return input + "." + Base64URL.encode(signature)
    }

    /// Signs access tokens with a new P-256 key from now on and lists it in the JWKS; returns the key.
    @discardableResult
    func useAsymmetricKeys() throws -> TestSigner {
        let signer = try TestSigner(.p256)
        core.state.withLock { $0.subClients.signer = signer }
        return signer
    }

    /// The `kid` of the JWKS key.
    var jwksKeyID: String { core.state.withLock { $0.subClients.keyID } }

    /// The code a factor's TOTP authenticator shows.
    func totpCode(factorID: String) -> String? {
        core.state.withLock { $0.subClients.factors.first { $0.id == factorID }?.totpCode }
    }

    /// The ids of the factors of a type (`webauthn`), oldest first.
    func factorIDs(ofType type: String) -> [String] {
        core.state.withLock { $0.subClients.factors.filter { $0.type == type }.map(\.id) }
    }

    /// The ids of a factor's challenges, oldest first.
    func challengeIDs(factorID: String) -> [String] {
        core.state.withLock { $0.subClients.challenges.filter { $0.factorID == factorID }.map(\.id) }
    }

    /// The status of a factor (`unverified`, `verified`); `nil` once removed.
    func factorStatus(_ factorID: String) -> String? {
        core.state.withLock { $0.subClients.factors.first { $0.id == factorID }?.status }
    }
}
