import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// The OAuth 2.1 server: client registrations (`/admin/oauth/clients`, admin only) and the consent and grant
/// calls a signed-in user makes (`/oauth/authorizations/…`, `/user/oauth/grants`, the user's bearer token).
extension GoTrueState {
    /// `/admin/oauth/clients…`, after the admin check.
    mutating func oauthClientRoute(_ parts: [String], _ request: RecordedRequest) throws(Reject) -> TestResponse? {
        if request.method == "GET", Self.captures(parts, "oauth/clients") != nil {
            let body = try! JSONSerialization.data(
                withJSONObject: ["clients": admin.clients.map(clientJSON), "aud": "authenticated"])
            return TestResponse(
                status: 200,
                headers: [
                    ("Content-Type", "application/json"), ("X-Total-Count", String(admin.clients.count)),
                    ("Link", "<\(base.absoluteString)/auth/v1/admin/oauth/clients?page=1&per_page=50>; rel=\"last\""),
                ], body: body)
        } else if request.method == "POST", Self.captures(parts, "oauth/clients") != nil {
            let body = try jsonBody(
                request,
                allowed: ["client_name", "client_uri", "redirect_uris", "grant_types", "response_types", "scope"])
            guard let name = try string(body, "client_name", request), let uris = body["redirect_uris"] as? [String],
                !uris.isEmpty
            else { throw httpError(request, 400, "validation_failed", "client_name and redirect_uris are required") }
            let client = GoTrueAdminData.OAuthClient(
                id: Self.uuid(), name: name, uri: try string(body, "client_uri", request), logoURI: nil,
                redirectURIs: uris,
                grantTypes: body["grant_types"] as? [String] ?? ["authorization_code", "refresh_token"],
                responseTypes: body["response_types"] as? [String] ?? ["code"],
                scope: try string(body, "scope", request), secret: "cs_" + Self.uuid())
            admin.clients.append(client)
            return .json(clientJSON(client, withSecret: true), status: 201)
        } else if request.method == "GET", let captures = Self.captures(parts, "oauth/clients/*") {
            let id = captures[0]
            return .json(clientJSON(admin.clients[try clientIndex(id, request)]))
        } else if request.method == "PUT", let captures = Self.captures(parts, "oauth/clients/*") {
            let id = captures[0]
            let index = try clientIndex(id, request)
            let body = try jsonBody(
                request, allowed: ["client_name", "client_uri", "logo_uri", "redirect_uris", "grant_types"])
            if let name = try string(body, "client_name", request) { admin.clients[index].name = name }
            if let uri = try string(body, "client_uri", request) { admin.clients[index].uri = uri }
            if let logo = try string(body, "logo_uri", request) { admin.clients[index].logoURI = logo }
            if let uris = body["redirect_uris"] as? [String] { admin.clients[index].redirectURIs = uris }
            if let grants = body["grant_types"] as? [String] { admin.clients[index].grantTypes = grants }
            return .json(clientJSON(admin.clients[index]))
        } else if request.method == "DELETE", let captures = Self.captures(parts, "oauth/clients/*") {
            let id = captures[0]
            admin.clients.remove(at: try clientIndex(id, request))
            return TestResponse(status: 204)
        } else if request.method == "POST", let captures = Self.captures(parts, "oauth/clients/*/regenerate_secret") {
            let id = captures[0]
            let index = try clientIndex(id, request)
            admin.clients[index].secret = "cs_" + Self.uuid()
            return .json(clientJSON(admin.clients[index], withSecret: true))
        } else {
            return nil
        }
    }

    func clientIndex(_ id: String, _ request: RecordedRequest) throws(Reject) -> Int {
        guard let index = admin.clients.firstIndex(where: { $0.id == id }) else {
            throw httpError(request, 404, "oauth_client_not_found", "OAuth client not found")
        }
        return index
    }

    func clientJSON(_ client: GoTrueAdminData.OAuthClient) -> [String: Any] { clientJSON(client, withSecret: false) }

    func clientJSON(_ client: GoTrueAdminData.OAuthClient, withSecret: Bool) -> [String: Any] {
        var json: [String: Any] = [
            "client_id": client.id, "client_name": client.name, "client_type": "confidential",
            "token_endpoint_auth_method": "client_secret_basic", "registration_type": "manual",
            "redirect_uris": client.redirectURIs, "grant_types": client.grantTypes,
            "response_types": client.responseTypes, "created_at": Self.timestamp(now),
            "updated_at": Self.timestamp(now),
        ]
        json["client_uri"] = client.uri
        json["logo_uri"] = client.logoURI
        json["scope"] = client.scope
        if withSecret { json["client_secret"] = client.secret }
        return json
    }

    /// `/oauth/authorizations/…` and `/user/oauth/grants`, with the user's bearer token; `nil` for other routes.
    mutating func oauthServerRoute(_ parts: [String], _ request: RecordedRequest) throws(Reject) -> TestResponse? {
        if request.method == "GET", let captures = Self.captures(parts, "oauth/authorizations/*") {
            let id = captures[0]
            let access = try authenticate(request)
            let index = try authorizationIndex(id, request, claimedBy: nil)
            admin.authorizations[index].userID = access.userID
            let client = admin.clients.first { $0.id == admin.authorizations[index].clientID }
            return .json([
                "authorization_id": id, "redirect_uri": client?.redirectURIs.first ?? "",
                "client": ["id": client?.id ?? "", "name": client?.name ?? "", "uri": client?.uri ?? ""],
                "user": ["id": access.userID], "scope": client?.scope ?? "openid",
            ])
        } else if request.method == "POST", let captures = Self.captures(parts, "oauth/authorizations/*/consent") {
            let id = captures[0]
            let access = try authenticate(request)
            let index = try authorizationIndex(id, request, claimedBy: access.userID)
            let body = try jsonBody(request, allowed: ["action"])
            let action = try string(body, "action", request)
            guard action == "approve" || action == "deny" else {
                throw httpError(request, 400, "validation_failed", "action must be approve or deny")
            }
            admin.authorizations[index].decision = action
            let clientID = admin.authorizations[index].clientID
            let redirect = admin.clients.first { $0.id == clientID }?.redirectURIs.first ?? "https://client.example/cb"
            if action == "approve" {
                admin.grants[access.userID, default: []].append(clientID)
                return .json(["redirect_url": redirect + "?code=" + Self.uuid()])
            }
            return .json(["redirect_url": redirect + "?error=access_denied"])
        } else if request.method == "GET", Self.captures(parts, "user/oauth/grants") != nil {
            let access = try authenticate(request)
            return .json(
                (admin.grants[access.userID] ?? []).map { id in
                    ["client": ["id": id], "scopes": ["openid"], "granted_at": Self.timestamp(now)]
                })
        } else if request.method == "DELETE", Self.captures(parts, "user/oauth/grants") != nil {
            let access = try authenticate(request)
            guard let clientID = request.query("client_id").map(Self.canonicalUUID),
                admin.grants[access.userID]?.contains(clientID) == true
            else { throw httpError(request, 404, "oauth_consent_not_found", "No grant for this client") }
            admin.grants[access.userID]?.removeAll { $0 == clientID }
            return TestResponse(status: 204)
        } else {
            return nil
        }
    }

    func authorizationIndex(_ id: String, _ request: RecordedRequest, claimedBy user: String?) throws(Reject) -> Int {
        guard let index = admin.authorizations.firstIndex(where: { $0.id == id && $0.decision == nil }),
            user == nil || admin.authorizations[index].userID == user
        else { throw httpError(request, 404, "oauth_authorization_not_found", "Authorization not found") }
        return index
    }
}

extension GoTrueState {
    /// The segments of `parts` in place of the pattern's `*`s (`users/*/passkeys`), or `nil` when it does not match.
    /// A UUID is read as GoTrue parses one: in either case (supabase-swift sends `uuidString`, upper case).
    static func captures(_ parts: [String], _ pattern: String) -> [String]? {
        let expected = pattern.split(separator: "/").map(String.init)
        guard expected.count == parts.count else { return nil }
        var captured: [String] = []
        for (want, part) in zip(expected, parts) {
            if want == "*" { captured.append(canonicalUUID(part)) } else if want != part { return nil }
        }
        return captured
    }

    /// A UUID in GoTrue's canonical (lower-case) form; any other text as it is.
    static func canonicalUUID(_ text: String) -> String {
        UUID(uuidString: text) == nil ? text : text.lowercased()
    }
}
