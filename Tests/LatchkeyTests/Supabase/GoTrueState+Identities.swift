import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// What the identity, SSO and Web3 routes keep beside the users (identities.go, sso.go, web3.go).
struct GoTrueCallsState: Sendable {
    /// An identity linked to a user after sign-up (OAuth, ID token, SSO).
    struct Identity: Sendable {
        var identityID: String
        var provider: String
        var subject: String
        var email: String
        var createdAt: Date
    }

    /// A SAML provider the project registered.
    struct SSOProvider: Sendable {
        var id: String
        var domain: String
    }

    /// Identities linked after sign-up, by user id.
    var linked: [String: [Identity]] = [:]
    /// Users whose sign-up identity was unlinked.
    var unlinkedPrimary: Set<String> = []
    /// The user each link-identity flow state links to, by flow state id.
    var linking: [String: String] = [:]
    /// Secure email changes in progress: the token hashes sent to the current and the new address.
    var emailChanges: [(userID: String, newEmail: String, hashes: [String])] = []
    /// The project's SSO providers.
    var ssoProviders = [SSOProvider(id: "0b5b7c36-6d0e-4c3f-9b2e-5b0d6c1a2f10", domain: "acme.example")]
}

/// Identities: `GET /user/identities/authorize` (link by browser), the ID-token grant with `link_identity`,
/// `DELETE /user/identities/{id}`, and the user's identities array (identities.go).
extension GoTrueState {
    /// The primary identity's id: stable per user (its id reversed, a UUID-shaped string), so a test can
    /// unlink it.
    static func primaryIdentityID(_ userID: String) -> String { String(userID.reversed()) }

    /// The user's identities as `GET /user` lists them: the sign-up one (unless unlinked), then the linked ones.
    func identitiesJSON(_ user: UserRecord) -> [[String: Any]] {
        var out: [[String: Any]] = []
        if !calls.unlinkedPrimary.contains(user.id) {
            out.append([
                "identity_id": Self.primaryIdentityID(user.id), "id": user.id, "user_id": user.id,
                "provider": user.provider, "identity_data": ["sub": user.id, "email": user.email], "email": user.email,
                "created_at": Self.timestamp(user.createdAt), "updated_at": Self.timestamp(user.updatedAt),
            ])
        }
        for identity in calls.linked[user.id] ?? [] {
            out.append([
                "identity_id": identity.identityID, "id": identity.subject, "user_id": user.id,
                "provider": identity.provider,
                "identity_data": ["sub": identity.subject, "email": identity.email], "email": identity.email,
                "created_at": Self.timestamp(identity.createdAt), "updated_at": Self.timestamp(identity.createdAt),
            ])
        }
        return out
    }

    /// `LinkIdentity`: a flow state for the signed-in user; with `skip_http_redirect=true`, `{"url": …}`.
    mutating func linkIdentityAuthorize(_ request: RecordedRequest) throws(Reject) -> TestResponse {
        let access = try authenticate(request)
        let provider = request.query("provider") ?? ""
        guard ["google", "github", "apple"].contains(provider) else {
            throw httpError(
                request, 400, "validation_failed", "Unsupported provider: provider \(provider) could not be found")
        }
        let challenge = request.query("code_challenge") ?? ""
        let method = (request.query("code_challenge_method") ?? "").lowercased()
        guard !challenge.isEmpty, method == "s256" else {
            throw httpError(
                request, 400, "validation_failed", "PKCE flow requires code_challenge_method and code_challenge")
        }
        guard request.query("skip_http_redirect") == "true" else {
            return .redirect(to: base.absoluteString + "/idp/link", status: 302)
        }
        let flow = FlowState(
            id: Self.uuid(), authCode: Self.uuid(), challenge: challenge, method: method, provider: provider,
            authenticationMethod: "oauth", redirectTo: allowedRedirect(request.query("redirect_to")), userID: nil,
            codeIssued: false, callbackUsed: false, createdAt: now)
        flowStates.append(flow)
        calls.linking[flow.id] = access.userID
        return .json(["url": base.absoluteString + "/idp/link?" + Self.encode([("state", flow.id)])])
    }

    /// The ID-token grant with `link_identity: true`: the bearer's user gets the token's identity.
    mutating func linkIdentityWithIdToken(
        _ request: RecordedRequest, provider: String, subject: String, email: String
    ) throws(Reject) -> TestResponse {
        let access = try authenticate(request)
        let taken = users.contains { $0.id != access.userID && $0.email == email }
        if taken || (calls.linked.values.joined().contains { $0.provider == provider && $0.subject == subject }) {
            throw httpError(request, 422, "identity_already_exists", "Identity is already linked")
        }
        calls.linked[access.userID, default: []].append(
            GoTrueCallsState.Identity(
                identityID: Self.uuid(), provider: provider, subject: subject, email: email, createdAt: now))
        return .json(newSession(for: access.userID))
    }

    /// `DeleteIdentity`: the identity must be the bearer's, and not its last one.
    mutating func unlinkIdentity(_ request: RecordedRequest, id: String) throws(Reject) -> TestResponse {
        let access = try authenticate(request)
        let user = users.first { $0.id == access.userID }!
        let identities = identitiesJSON(user)
        guard identities.contains(where: { $0["identity_id"] as? String == id }) else {
            throw httpError(request, 404, "identity_not_found", "Identity doesn't exist")
        }
        guard identities.count > 1 else {
            throw httpError(
                request, 422, "single_identity_not_deletable", "User must have at least 1 identity after unlinking")
        }
        if id == Self.primaryIdentityID(user.id) {
            calls.unlinkedPrimary.insert(user.id)
        } else {
            calls.linked[user.id]?.removeAll { $0.identityID == id }
        }
        return .json([String: Any]())
    }

    /// The external provider consents to a link or SSO flow state: the app's redirect with `?code=`, or `nil`
    /// for an unknown state.
    mutating func consentExternally(state: String, email: String) -> String? {
        guard let index = flowStates.firstIndex(where: { $0.id == state && !$0.callbackUsed }) else { return nil }
        flowStates[index].callbackUsed = true
        let provider = flowStates[index].provider
        let userID: String
        if let linking = calls.linking.removeValue(forKey: state) {
            userID = linking
            calls.linked[userID, default: []].append(
                GoTrueCallsState.Identity(
                    identityID: Self.uuid(), provider: provider, subject: "ext-" + Self.uuid(), email: email,
                    createdAt: now))
        } else {
            userID =
                users.first(where: { $0.email == email })?.id
                ?? createUser(email: email, password: nil, provider: provider, confirmed: true, name: nil)
        }
        flowStates[index].userID = userID
        flowStates[index].codeIssued = true
        return Self.appending([("code", flowStates[index].authCode)], to: flowStates[index].redirectTo)
    }
}

extension GoTrueServer {
    /// Plays the external provider (OAuth for a link, the SAML IdP for SSO) at a URL the server answered with:
    /// the user consents as `email`; returns the app's callback URL with `?code=`.
    func consent(at url: URL, as email: String = "ada@example.com") -> URL? {
        guard let state = url.supabaseQueryItems["state"] else { return nil }
        return core.state.withLock { $0.consentExternally(state: state, email: email) }.flatMap(URL.init(string:))
    }

    /// The identity ids `GET /user` would list for a user, by email.
    func identityIDs(of email: String) -> [String] {
        core.state.withLock { state in
            state.users.first { $0.email == email }.map { state.identitiesJSON($0) }?.compactMap {
                $0["identity_id"] as? String
            } ?? []
        }
    }
}
