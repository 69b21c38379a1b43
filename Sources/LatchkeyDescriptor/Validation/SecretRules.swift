import Foundation

/// No secret in a descriptor: a native app cannot keep one.
enum SecretRules {
    static let secretNames = [
        "client_secret", "clientsecret", "secret", "password", "private_key", "privatekey", "api_secret",
    ]

    /// Whether a parameter name names a secret.
    static func isSecretName(_ name: String) -> Bool {
        let lower = name.lowercased().replacingOccurrences(of: "-", with: "_")
        return secretNames.contains(lower) || lower.hasSuffix("_secret") || lower.hasSuffix("secret")
    }

    /// Refuses a parameter named like a secret whose value is written literally (not a variable).
    static func check(_ member: JSONMember, _ sink: DiagnosticSink) {
        guard isSecretName(member.key), case .string(let text) = member.value.value else { return }
        checkLiteral(name: member.key, value: text, member.value, sink)
    }

    static func checkLiteral(name: String, value: String, _ node: JSONNode, _ sink: DiagnosticSink) {
        guard isSecretName(name), !value.isEmpty,
            !(value.hasPrefix("{") && value.hasSuffix("}") && !value.hasPrefix("{{"))
        else { return }
        sink.error(
            "\"\(name)\" holds a literal secret: a descriptor ships inside apps and cannot keep one", at: node,
            fixIt: "remove it; use \"clientAuthentication\" with a secret supplied at run time by server-side code")
    }
}
