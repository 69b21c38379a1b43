import LatchkeyTokens

/// Maps a provider's error code and HTTP status onto a stable ``AuthError/Code``.
enum ErrorClassifier {
    /// The OAuth 2.0 error codes (RFC 6749 §5.2, RFC 8628 §3.5) and the stable codes they map to.
    static let oauthDefaults: [String: AuthError.Code] = [
        "invalid_grant": .invalidGrant,
        "invalid_client": "invalid_client",
        "unauthorized_client": "unauthorized_client",
        "unsupported_grant_type": "unsupported_grant_type",
        "invalid_scope": "invalid_scope",
        "invalid_request": "invalid_request",
        "access_denied": .loginCancelled,
        "authorization_pending": .authorizationPending,
        "slow_down": .slowDown,
        "expired_token": .expiredToken,
        "invalid_dpop_proof": "invalid_dpop_proof",
        "use_dpop_nonce": "use_dpop_nonce",
    ]

    /// The stable code for a provider code and status: the first matching rule, else the OAuth table,
    /// else `unknown`.
    /// - Parameter document: The error body, for rows that match on its members.
    static func code(
        providerCode: String?, status: Int?, rules: [ErrorMappingSpec.Rule], request: String? = nil,
        document: JSON? = nil
    ) -> AuthError.Code {
        let member = { (pointer: String) in memberText(document, pointer) }
        if let rule = rules.first(where: {
            $0.matches(providerCode: providerCode, status: status, request: request, member: member)
        }) {
            return AuthError.Code(rule.code, kind: rule.kind)
        }
        if let providerCode, let code = oauthDefaults[providerCode] { return code }
        return .unknown
    }

    /// The first string or integer found at the pointers.
    static func firstCode(in document: JSON?, pointers: [String]) -> String? {
        guard let document else { return nil }
        for pointer in pointers {
            if let value = SessionDecoder.text(document.value(at: pointer)), !value.isEmpty { return value }
        }
        return nil
    }

    /// The longest provider message ``AuthError/providerMessage`` keeps.
    static let providerMessageLimit = 1000

    /// The first string found at the pointers, verbatim up to ``providerMessageLimit`` characters.
    static func providerMessage(in document: JSON?, pointers: [String]) -> String? {
        guard let document else { return nil }
        for pointer in pointers {
            if let text = document.value(at: pointer)?.string, !text.isEmpty {
                return text.count > providerMessageLimit ? String(text.prefix(providerMessageLimit)) + "…" : text
            }
        }
        return nil
    }

    /// The first string found at the pointers, shortened for a log-safe message.
    static func firstMessage(in document: JSON?, pointers: [String]) -> String? {
        guard let document else { return nil }
        for pointer in pointers {
            if let text = document.value(at: pointer)?.string, !text.isEmpty {
                return text.count > 300 ? String(text.prefix(300)) + "…" : text
            }
        }
        return nil
    }
}
