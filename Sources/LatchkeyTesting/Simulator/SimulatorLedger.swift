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
    }

    /// What a token belongs to.
    struct Grant: Sendable {
        var user: SimulatedUser
        var family: String
        var clientID: String
    }

    var codes: [String: CodeRecord] = [:]
    var accessTokens: [String: Grant] = [:]
    var refreshTokens: [String: (grant: Grant, used: Bool)] = [:]
    var deviceCodes: [String: SimulatedUser] = [:]
    var revokedFamilies: Set<String> = []
    var faults: [(path: String?, response: TestResponse)] = []

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
    mutating func issue(_ grant: Grant) -> (access: String, refresh: String) {
        let access = Self.token("sim_at")
        let refresh = Self.token("sim_rt")
        accessTokens[access] = grant
        refreshTokens[refresh] = (grant, false)
        return (access, refresh)
    }

    /// Revokes the family a token (access or refresh) belongs to.
    mutating func revokeFamily(ofToken token: String?) {
        guard let token else { return }
        if let family = accessTokens[token]?.family ?? refreshTokens[token]?.grant.family {
            revokedFamilies.insert(family)
        }
    }

    /// Takes the first queued fault for a path (or for any path).
    mutating func takeFault(for path: String) -> TestResponse? {
        guard let index = faults.firstIndex(where: { $0.path == nil || $0.path == path }) else { return nil }
        return faults.remove(at: index).response
    }
}
