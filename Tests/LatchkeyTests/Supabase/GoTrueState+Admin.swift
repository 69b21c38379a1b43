import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// The admin API's and the OAuth 2.1 server's data.
struct GoTrueAdminData: Sendable {
    struct OAuthClient: Sendable {
        var id: String
        var name: String
        var uri: String?
        var logoURI: String?
        var redirectURIs: [String]
        var grantTypes: [String]
        var responseTypes: [String]
        var scope: String?
        var secret: String
    }

    struct Authorization: Sendable {
        var id: String
        var clientID: String
        var userID: String?
        var decision: String?
    }

    /// Soft-deleted users' ids.
    var softDeleted: Set<String> = []
    /// Passkey ids by user id.
    var passkeys: [String: [String]] = [:]
    var clients: [OAuthClient] = []
    var authorizations: [Authorization] = []
    /// Granted client ids by user id.
    var grants: [String: [String]] = [:]
}

extension GoTrueServer {
    /// The secret key the admin routes require, as `apikey` and as the bearer token.
    static let secretKey = "sb_secret_wireTests_9d81be3f"

    /// A user's record as the admin API shows it, by id.
    func adminUser(_ id: String) -> [String: Any]? {
        core.state.withLock { state in state.users.first { $0.id == id }.map { state.adminUserJSON($0) } }
    }

    /// The id of the user with this email address.
    func userID(of email: String) -> String? { core.state.withLock { $0.users.first { $0.email == email }?.id } }

    /// Registers a passkey for a user; returns its id.
    func addPasskey(userID: String) -> String {
        core.state.withLock { state in
            let id = GoTrueState.uuid()
            state.admin.passkeys[userID, default: []].append(id)
            return id
        }
    }

    /// A user's passkey ids.
    func passkeys(of userID: String) -> [String] { core.state.withLock { $0.admin.passkeys[userID] ?? [] } }

    /// Starts an OAuth 2.1 authorization of a registered client (as a third-party app's `/oauth/authorize` does);
    /// returns its id.
    func addPendingAuthorization(clientID: String) -> String {
        core.state.withLock { state in
            let id = "auth_" + GoTrueState.uuid().replacingOccurrences(of: "-", with: "")
            state.admin.authorizations.append(.init(id: id, clientID: clientID))
            return id
        }
    }

    /// The OAuth clients registered.
    var oauthClientIDs: [String] { core.state.withLock { $0.admin.clients.map(\.id) } }

    /// Whether a user is soft-deleted.
    func isSoftDeleted(_ id: String) -> Bool { core.state.withLock { $0.admin.softDeleted.contains(id) } }
}

/// The admin routes (`/admin/…`): the gateway accepted the secret key as `apikey`; GoTrue wants it as the bearer
/// token too (a `service_role` JWT; 401 `no_authorization` without one, 403 `not_admin` for any other).
extension GoTrueState {
    /// Routes the admin API and the OAuth 2.1 server; `nil` for any other route.
    mutating func adminRoute(_ route: String, _ request: RecordedRequest) throws(Reject) -> TestResponse? {
        let parts = route.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        if let response = try oauthServerRoute(parts, request) { return response }
        guard parts.first == "admin" else { return nil }
        try requireAdmin(request)
        let rest = Array(parts.dropFirst())
        if request.method == "GET", Self.captures(rest, "users") != nil {
            return try listUsers(request)
        } else if request.method == "POST", Self.captures(rest, "users") != nil {
            return try adminCreateUser(request)
        } else if request.method == "GET", let captures = Self.captures(rest, "users/*") {
            let id = captures[0]
            return .json(adminUserJSON(users[try userIndex(id, request)]))
        } else if request.method == "PUT", let captures = Self.captures(rest, "users/*") {
            let id = captures[0]
            return try adminUpdateUser(id, request)
        } else if request.method == "DELETE", let captures = Self.captures(rest, "users/*") {
            let id = captures[0]
            return try adminDeleteUser(id, request)
        } else if request.method == "GET", let captures = Self.captures(rest, "users/*/passkeys") {
            let id = captures[0]
            _ = try userIndex(id, request)
            return .json((admin.passkeys[id] ?? []).map { ["id": $0, "friendly_name": "Key"] })
        } else if request.method == "DELETE", let captures = Self.captures(rest, "users/*/passkeys/*") {
            let id = captures[0]
            let passkey = captures[1]
            guard admin.passkeys[id]?.contains(passkey) == true else {
                throw httpError(request, 404, "passkey_not_found", "Passkey not found")
            }
            admin.passkeys[id]?.removeAll { $0 == passkey }
            return TestResponse(status: 204)
        } else if request.method == "POST", Self.captures(rest, "invite") != nil {
            return try invite(request)
        } else if request.method == "POST", Self.captures(rest, "generate_link") != nil {
            return try generateLink(request)
        } else {
            return try oauthClientRoute(rest, request)
        }
    }

    /// The admin check: the secret key as `apikey` and as the bearer token.
    func requireAdmin(_ request: RecordedRequest) throws(Reject) {
        guard let header = request.header("Authorization") else {
            throw httpError(request, 401, "no_authorization", "This endpoint requires a valid Bearer token")
        }
        guard header == "Bearer " + GoTrueServer.secretKey, request.header("apikey") == GoTrueServer.secretKey else {
            throw httpError(request, 403, "not_admin", "User not allowed")
        }
    }

    func userIndex(_ id: String, _ request: RecordedRequest) throws(Reject) -> Int {
        guard UUID(uuidString: id) != nil else {
            throw httpError(request, 404, "user_not_found", "User not found")
        }
        guard let index = users.firstIndex(where: { $0.id == id }) else {
            throw httpError(request, 404, "user_not_found", "User not found")
        }
        return index
    }

    func adminUserJSON(_ user: UserRecord) -> [String: Any] {
        var json = userJSON(user)
        if admin.softDeleted.contains(user.id) { json["deleted_at"] = Self.timestamp(now) }
        return json
    }

    /// `GET /admin/users?page=&per_page=`: `{users, aud}`, `X-Total-Count` and a `Link` header.
    func listUsers(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let page = Int(request.query("page") ?? "") ?? 1
        let perPage = Int(request.query("per_page") ?? "") ?? 50
        guard page >= 1, perPage >= 1 else { throw httpError(request, 400, "validation_failed", "Bad pagination") }
        let slice = users.dropFirst((page - 1) * perPage).prefix(perPage)
        let last = max(1, (users.count + perPage - 1) / perPage)
        var links: [String] = []
        let base = self.base.absoluteString + "/auth/v1/admin/users"
        if page < last { links.append("<\(base)?page=\(page + 1)&per_page=\(perPage)>; rel=\"next\"") }
        links.append("<\(base)?page=\(last)&per_page=\(perPage)>; rel=\"last\"")
        let body = try! JSONSerialization.data(
            withJSONObject: ["users": slice.map { adminUserJSON($0) }, "aud": "authenticated"])
        return TestResponse(
            status: 200,
            headers: [
                ("Content-Type", "application/json"), ("X-Total-Count", String(users.count)),
                ("Link", links.joined(separator: ", ")),
            ], body: body)
    }

    static let adminUserMembers: Set<String> = [
        "id", "email", "phone", "password", "password_hash", "nonce", "email_confirm", "phone_confirm",
        "user_metadata", "app_metadata", "role", "ban_duration",
    ]

    mutating func adminCreateUser(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(request, allowed: Self.adminUserMembers)
        let email = try string(body, "email", request) ?? ""
        let phone = try string(body, "phone", request) ?? ""
        guard !email.isEmpty || !phone.isEmpty else {
            throw httpError(request, 400, "validation_failed", "Unable to validate email address: invalid format")
        }
        if !email.isEmpty, users.contains(where: { $0.email == email }) {
            throw httpError(request, 422, "email_exists", "A user with this email address has already been registered")
        }
        let password = try string(body, "password", request)
        if let password, password.count < Self.minimumPasswordLength { throw weakPassword(request) }
        let confirmed = (body["email_confirm"] as? Bool) ?? false
        let id = createUser(email: email, password: password, provider: "email", confirmed: confirmed, name: nil)
        let index = users.count - 1
        if let requested = try string(body, "id", request) { users[index].id = requested }
        users[index].phone = phone
        try applyMetadata(body, to: index, request)
        _ = id
        return .json(adminUserJSON(users[index]))
    }

    mutating func adminUpdateUser(_ id: String, _ request: RecordedRequest) throws(Reject) -> TestResponse {
        let index = try userIndex(id, request)
        let body = try jsonBody(request, allowed: Self.adminUserMembers.subtracting(["id"]))
        if let email = try string(body, "email", request) { users[index].email = email }
        if let phone = try string(body, "phone", request) { users[index].phone = phone }
        if let password = try string(body, "password", request) {
            guard password.count >= Self.minimumPasswordLength else { throw weakPassword(request) }
            users[index].password = password
        }
        if body["email_confirm"] as? Bool == true { users[index].confirmedAt = now }
        try applyMetadata(body, to: index, request)
        users[index].updatedAt = now
        return .json(adminUserJSON(users[index]))
    }

    mutating func applyMetadata(_ body: [String: Any], to index: Int, _ request: RecordedRequest) throws(Reject) {
        guard let data = body["user_metadata"] else { return }
        guard let object = data as? [String: Any], let encoded = try? JSONSerialization.data(withJSONObject: object)
        else { throw httpError(request, 400, "bad_json", "Could not parse request body as JSON: user_metadata") }
        users[index].metadata = encoded
    }

    mutating func adminDeleteUser(_ id: String, _ request: RecordedRequest) throws(Reject) -> TestResponse {
        let index = try userIndex(id, request)
        let body = request.body.isEmpty ? [:] : try jsonBody(request, allowed: ["should_soft_delete"])
        if let soft = body["should_soft_delete"], !(soft is Bool) {
            throw httpError(request, 400, "bad_json", "Could not parse request body as JSON: should_soft_delete")
        }
        if body["should_soft_delete"] as? Bool == true {
            admin.softDeleted.insert(id)
        } else {
            users.remove(at: index)
        }
        return .json([String: Any]())
    }

    mutating func invite(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(request, allowed: ["email", "data"])
        guard let email = try string(body, "email", request), !email.isEmpty else {
            throw httpError(request, 400, "validation_failed", "Unable to validate email address: invalid format")
        }
        if users.contains(where: { $0.email == email }) {
            throw httpError(request, 422, "email_exists", "A user with this email address has already been registered")
        }
        _ = createUser(email: email, password: nil, provider: "email", confirmed: false, name: nil)
        let index = users.count - 1
        if let data = body["data"], let encoded = try? JSONSerialization.data(withJSONObject: data) {
            users[index].metadata = encoded
        }
        sendEmail(to: index, type: "invite", redirect: request.query("redirect_to") ?? siteURL, challenge: nil)
        return .json(adminUserJSON(users[index]))
    }

    mutating func generateLink(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let body = try jsonBody(request, allowed: ["type", "email", "password", "new_email", "data"])
        let type = try string(body, "type", request) ?? ""
        let kinds = ["signup", "invite", "magiclink", "recovery", "email_change_current", "email_change_new"]
        guard kinds.contains(type), let email = try string(body, "email", request) else {
            throw httpError(request, 400, "validation_failed", "Invalid email action link type requested: \(type)")
        }
        var index = users.firstIndex { $0.email == email }
        if type == "signup" || type == "invite" {
            guard index == nil else {
                throw httpError(
                    request, 422, "email_exists", "A user with this email address has already been registered")
            }
            _ = createUser(
                email: email, password: try string(body, "password", request), provider: "email", confirmed: false,
                name: nil)
            index = users.count - 1
        }
        guard let index else { throw httpError(request, 404, "user_not_found", "User with this email not found") }
        if type.hasPrefix("email_change"), try string(body, "new_email", request) == nil {
            throw httpError(request, 400, "validation_failed", "The new email address must be provided")
        }
        let redirect = request.query("redirect_to") ?? siteURL
        let token = String(format: "%06d", Int.random(in: 0..<1_000_000))
        let hash = GoTrueServer.sha256Hex(email + token)
        var json = adminUserJSON(users[index])
        json["action_link"] = base.absoluteString + "/auth/v1/verify?token=\(hash)&type=\(type)&redirect_to=\(redirect)"
        json["email_otp"] = token
        json["hashed_token"] = hash
        json["redirect_to"] = redirect
        json["verification_type"] = type
        return .json(json)
    }
}
