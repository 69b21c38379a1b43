import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens

/// First-factor passkeys (`/passkeys/…`): registration and authentication ceremonies' HTTP half, and the
/// user's list. The credential is not checked cryptographically here: its `id` names the passkey.
extension GoTrueState {
    struct PasskeyStore: Sendable {
        struct Passkey: Sendable {
            var id: String
            var userID: String
            var credentialID: String
            var friendlyName: String
        }

        var passkeys: [Passkey] = []
        /// Open challenges: id → the user registering (nil: a sign-in).
        var challenges: [String: String?] = [:]
        /// Every challenge id issued, oldest first.
        var issued: [String] = []
    }

    mutating func passkeyRoute(_ request: RecordedRequest, _ route: String) throws(Reject) -> TestResponse {
        switch (request.method, route) {
        case ("POST", "/passkeys/registration/options"):
            let access = try authenticate(request)
            try requireNoBody(request)
            return .json(openChallenge(for: access.userID, type: "create"))
        case ("POST", "/passkeys/registration/verify"):
            let access = try authenticate(request)
            let (challenge, credentialID) = try ceremony(request)
            guard subClients.passkeys.challenges[challenge] == .some(access.userID) else {
                throw httpError(request, 404, "webauthn_challenge_not_found", "Challenge not found")
            }
            subClients.passkeys.challenges[challenge] = nil
            let passkey = PasskeyStore.Passkey(
                id: Self.uuid(), userID: access.userID, credentialID: credentialID, friendlyName: "Passkey")
            subClients.passkeys.passkeys.append(passkey)
            return .json(passkeyJSON(passkey))
        case ("POST", "/passkeys/authentication/options"):
            try requireNoBody(request)
            return .json(openChallenge(for: nil, type: "get"))
        case ("POST", "/passkeys/authentication/verify"):
            let (challenge, credentialID) = try ceremony(request)
            guard subClients.passkeys.challenges[challenge] == .some(nil) else {
                throw httpError(request, 404, "webauthn_challenge_not_found", "Challenge not found")
            }
            subClients.passkeys.challenges[challenge] = nil
            guard let passkey = subClients.passkeys.passkeys.first(where: { $0.credentialID == credentialID }) else {
                throw httpError(request, 400, "webauthn_verification_failed", "Unknown credential")
            }
            return .json(newSession(for: passkey.userID))
        case ("GET", "/passkeys/"):
            let access = try authenticate(request)
            return .json(subClients.passkeys.passkeys.filter { $0.userID == access.userID }.map(passkeyJSON))
        default:
            return try passkeyItemRoute(request, route)
        }
    }

    private mutating func passkeyItemRoute(_ request: RecordedRequest, _ route: String) throws(Reject) -> TestResponse {
        let id = String(route.dropFirst("/passkeys/".count))
        let access = try authenticate(request)
        guard !id.contains("/"),
            let index = subClients.passkeys.passkeys.firstIndex(where: { $0.id == id && $0.userID == access.userID })
        else { throw httpError(request, 404, "webauthn_credential_not_found", "Passkey not found") }
        switch request.method {
        case "PATCH":
            let body = try jsonBody(request, allowed: ["friendly_name"])
            guard let name = try string(body, "friendly_name", request), !name.isEmpty else {
                throw httpError(request, 400, "validation_failed", "friendly_name is required")
            }
            subClients.passkeys.passkeys[index].friendlyName = name
            return .json(passkeyJSON(subClients.passkeys.passkeys[index]))
        case "DELETE":
            subClients.passkeys.passkeys.remove(at: index)
            return TestResponse(status: 204)
        default:
            return .text("404 page not found", status: 404)
        }
    }

    private func requireNoBody(_ request: RecordedRequest) throws(Reject) {
        guard request.body.isEmpty || request.bodyText == "{}" else {
            throw httpError(request, 400, "bad_json", "Could not parse request body as JSON: unexpected body")
        }
    }

    private mutating func openChallenge(for userID: String?, type: String) -> [String: Any] {
        let id = Self.uuid()
        subClients.passkeys.challenges[id] = .some(userID)
        subClients.passkeys.issued.append(id)
        let options = userID.map { creationOptions(userID: $0) } ?? assertionOptions()
        return ["challenge_id": id, "options": options, "expires_at": Int(now.timeIntervalSince1970) + 300]
    }

    /// W3C `PublicKeyCredentialCreationOptions` for the user, as GoTrue's WebAuthn library writes them.
    func creationOptions(userID: String) -> [String: Any] {
        [
            "challenge": "Y2hhbGxlbmdl", "rp": ["id": Self.relyingParty, "name": "Latchkey tests"],
            "user": ["id": Base64URL.encode(Array(userID.utf8)), "name": "ada@example.com", "displayName": "Ada"],
            "pubKeyCredParams": [["type": "public-key", "alg": -7]], "timeout": 60000,
        ]
    }

    /// W3C `PublicKeyCredentialRequestOptions`.
    func assertionOptions() -> [String: Any] {
        ["challenge": "YXNzZXJ0aW9u", "rpId": Self.relyingParty, "timeout": 60000, "userVerification": "preferred"]
    }

    /// The relying party the options name (not the server's host: the client must read it from the options).
    static let relyingParty = "auth.example.com"

    /// The ceremony's body: `challenge_id` and a W3C `credential` with an `id`.
    private func ceremony(_ request: RecordedRequest) throws(Reject) -> (String, String) {
        let body = try jsonBody(request, allowed: ["challenge_id", "credential"])
        guard let challenge = try string(body, "challenge_id", request),
            let credentialID = (body["credential"] as? [String: Any])?["id"] as? String
        else { throw httpError(request, 400, "validation_failed", "challenge_id and credential are required") }
        return (challenge, credentialID)
    }

    private func passkeyJSON(_ passkey: PasskeyStore.Passkey) -> [String: Any] {
        ["id": passkey.id, "friendly_name": passkey.friendlyName, "created_at": Self.timestamp(now)]
    }
}

extension GoTrueServer {
    /// The passkey challenge ids issued, oldest first.
    var passkeyChallengeIDs: [String] { core.state.withLock { $0.subClients.passkeys.issued } }

    /// The ids of the passkeys a user has.
    func passkeyIDs(ofUserWithEmail email: String) -> [String] {
        core.state.withLock { state in
            let userID = state.users.first { $0.email == email }?.id
            return state.subClients.passkeys.passkeys.filter { $0.userID == userID }.map(\.id)
        }
    }
}
