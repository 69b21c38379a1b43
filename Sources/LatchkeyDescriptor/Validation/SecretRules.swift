import Foundation

/// No secret in a descriptor: a native app cannot keep one.
enum SecretRules {
    static let secretNames = [
        "client_secret", "clientsecret", "secret", "password", "private_key", "privatekey", "api_secret",
    ]

    /// Whether a parameter name names a secret.
    static func isSecretName(_ name: String) -> Bool {
        let lower: String
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII (every real name): lower-case and replace hyphens byte by byte.
            lower = String(
                decoding: name.utf8.map { byte in
                    switch byte {
                    case UInt8(ascii: "-"): UInt8(ascii: "_")
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
                    default: byte
                    }
                }, as: UTF8.self)
        } else {
            lower = name.lowercased().replacingOccurrences(of: "-", with: "_")
        }
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
