import LatchkeyTokens
import LatchkeyVocabulary

/// Checks the token-request parameters an app adds at run time (``AuthClientOptions/additionalTokenParameters``)
/// and turns them into parameters the request builder sends.
enum AdditionalTokenParameters {
    /// The parameters of OAuth 2.0 token requests (RFC 6749 §4.1.3, §6, §2.3.1; RFC 7636; RFC 7521/7523;
    /// RFC 8628; RFC 8693) that only the protocol sets.
    static let protocolNames: Set<String> = [
        "grant_type", "code", "code_verifier", "redirect_uri", "client_id", "client_secret", "client_assertion",
        "client_assertion_type", "refresh_token", "scope", "device_code", "username", "password", "assertion",
        "subject_token", "subject_token_type", "actor_token", "actor_token_type",
    ]

    /// The longest name accepted.
    static let maximumNameLength = 128

    /// Checks the app's parameters against the protocol's and the descriptor's own, and returns them as
    /// literal parameters (never templates), sorted by name.
    /// - Parameters:
    ///   - parameters: The app's parameters by name.
    ///   - provider: The provider whose token requests they join.
    /// - Returns: The parameters to send.
    ///   A parameter the descriptor's constant `tokenParameters` already send with the same name and value
    ///   (SAP CDC's `httpStatusCodes` = `true`, which Lokksmith's guide has the app pass) is accepted and not
    ///   sent twice.
    /// - Throws: `invalid_configuration` for an empty or over-long name, a name with a control character, or
    ///   a name (in any letter case) that the protocol or the descriptor's token requests already send (with
    ///   another value, for a constant `tokenParameters` entry).
    static func resolve(_ parameters: [String: String], provider: ProviderSpec) throws(AuthError) -> [ParameterSpec] {
        guard !parameters.isEmpty else { return [] }
        let reserved = Set(
            (protocolNames.map { $0 } + descriptorNames(of: provider)).map { $0.lowercased() })
        var resolved: [ParameterSpec] = []
        for name in parameters.keys.sorted() {
            if let constant = provider.extraTokenParameters.first(where: { $0.name == name }),
                let text = constantText(constant.value), text == parameters[name]
            {
                continue
            }
            guard !name.isEmpty, name.count <= maximumNameLength,
                !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw AuthError(
                    .invalidConfiguration,
                    "An additional token parameter needs a name of 1 to \(maximumNameLength) characters without "
                        + "control characters.", provider: provider.name)
            }
            guard !reserved.contains(name.lowercased()) else {
                throw AuthError(
                    .invalidConfiguration,
                    "The additional token parameter '\(name)' is one the token requests already send; it cannot "
                        + "be replaced.", provider: provider.name)
            }
            resolved.append(ParameterSpec(name, .string(ValueTemplate(literal: parameters[name] ?? ""))))
        }
        return resolved
    }

    /// The text a constant descriptor parameter is sent as, or `nil` for one filled from variables.
    static func constantText(_ value: JSONTemplate) -> String? {
        switch value {
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let lexeme): return lexeme
        case .string(let template):
            guard template.variables.isEmpty else { return nil }
            return template.segments.map { segment in
                if case .literal(let text) = segment { return text }
                return ""
            }.joined()
        case .null, .object, .array: return nil
        }
    }

    /// The names the descriptor's token requests send: their query and body, and the constant
    /// `tokenParameters`.
    static func descriptorNames(of provider: ProviderSpec) -> [String] {
        let flows = provider.flows
        let requests = [
            flows.authorizationCode?.exchangeRequest, flows.refresh?.request, flows.deviceCode?.tokenRequest,
            flows.clientCredentials?.request,
        ].compactMap { $0 }.compactMap { provider.requests[$0] }
        return requests.flatMap { ($0.query + $0.body).map(\.name) } + provider.extraTokenParameters.map(\.name)
    }
}
