import Foundation

/// The simulator's memory: authorization codes, tokens and their families, queued faults.
struct SimulatorLedger: Sendable {
    /// An issued authorization code.
    struct CodeRecord: Sendable {
        var user: SimulatedUser
        var challenge: String?
        var redirectURI: String
        var nonce: String?
        var clientID: String
        var used = false
        var family: String?
        /// The `dpop_jkt` of the authorization request: the key the code exchange's proof must use.
        var dpopJKT: String?
    }

    /// What a token belongs to.
    struct Grant: Sendable {
        var user: SimulatedUser
        var family: String
        var clientID: String
    }

    /// An issued device code: its user and how often it was polled.
    struct DeviceRecord: Sendable {
        var user: SimulatedUser
        /// The code the user types at the verification page.
        var userCode = ""
        var polls = 0
        /// Whether the user approved it at the verification page (the next poll gets tokens).
        var approved = false
    }

    /// An error the authorize endpoint sends back instead of a code.
    struct AuthorizationFault: Sendable {
        var error: String
        var errorCode: String?
        var description: String
        /// More callback parameters (a `match` row's members, e.g. Facebook's `error_reason`).
        var parameters: [(String, String)] = []
    }

    var codes: [String: CodeRecord] = [:]
    /// How long the ID tokens issued from now on are valid, in seconds.
    var idTokenLifetime = 3600
    var accessTokens: [String: Grant] = [:]
    var refreshTokens: [String: (grant: Grant, used: Bool)] = [:]
    var deviceCodes: [String: DeviceRecord] = [:]
    var revokedFamilies: Set<String> = []
    var faults: [(path: String?, response: TestResponse)] = []
    /// Faults for a descriptor request by name (its path and constant parameters must match).
    var requestFaults: [(request: String, response: TestResponse)] = []
    var authorizationFaults: [AuthorizationFault] = []
    /// The users who were already sent a callback user document (sent on the first sign-in only).
    var callbackUsersSent: Set<String> = []
    /// DPoP (RFC 9449) and pushed authorization (RFC 9126) state.
    var senderConstraint = SimulatorSenderConstraintState()

    /// A fresh random token with a prefix.
    static func token(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(8)
    }

    /// The grant of a current access token, or `nil` when it is unknown or its family was revoked.
    func grant(forAccessToken token: String?) -> Grant? {
        guard let token, let grant = accessTokens[token], !revokedFamilies.contains(grant.family) else { return nil }
        return grant
    }

    /// Issues an access and a refresh token in a family.
    /// - Parameters:
    ///   - grant: What the tokens belong to.
    ///   - minted: A signed access token to use (PASETO), or `nil` for a random opaque one.
    ///   - jkt: The thumbprint of the DPoP key both tokens are bound to, or `nil` for bearer tokens.
    mutating func issue(_ grant: Grant, minted: String? = nil, boundTo jkt: String? = nil)
        -> (access: String, refresh: String)
    {
        let access = minted ?? Self.token("sim_at")
        let refresh = Self.token("sim_rt")
        accessTokens[access] = grant
        refreshTokens[refresh] = (grant, false)
        if let jkt {
            senderConstraint.bindings[access] = jkt
            senderConstraint.bindings[refresh] = jkt
        }
        return (access, refresh)
    }

    /// Revokes the family a token (access or refresh) belongs to.
    mutating func revokeFamily(ofToken token: String?) {
        guard let token else { return }
        if let family = accessTokens[token]?.family ?? refreshTokens[token]?.grant.family {
            revokedFamilies.insert(family)
        }
    }

    /// Takes the first queued fault for a descriptor request.
    mutating func takeFault(forRequest name: String?) -> TestResponse? {
        guard let name, let index = requestFaults.firstIndex(where: { $0.request == name }) else { return nil }
        return requestFaults.remove(at: index).response
    }

    /// Takes the first queued authorization fault.
    mutating func takeAuthorizationFault() -> AuthorizationFault? {
        authorizationFaults.isEmpty ? nil : authorizationFaults.removeFirst()
    }

    /// Takes the first queued fault for a path (or for any path).
    mutating func takeFault(for path: String) -> TestResponse? {
        guard let index = faults.firstIndex(where: { $0.path == nil || $0.path == path }) else { return nil }
        return faults.remove(at: index).response
    }
}
