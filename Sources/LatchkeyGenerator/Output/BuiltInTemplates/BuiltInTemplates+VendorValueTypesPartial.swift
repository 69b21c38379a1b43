// swift-format-ignore-file
// Written by scripts/embed-templates.sh from Templates/. Do not edit by hand.

extension BuiltInTemplates {
    /// `Templates/_VendorValueTypes.swift.template`.
    static let partialVendorValueTypes = #"""
{{! The vendor SDK's error, principal and session types. }}
/// A failure of {{authType | doc}}, with a stable `code` shared by {{displayName | doc}}'s SDKs and a `message` for
/// developers (never a token).
///
/// Codes: {{errorCodes | doc}}.
public struct {{errorType | identifier}}: Swift.Error, Swift.Sendable, Swift.Hashable, Swift.CustomStringConvertible {
    /// The stable code, e.g. `login_cancelled`.
    public let code: Swift.String
    /// What happened, for developers.
    public let message: Swift.String
    /// The provider's own error code, when it sent one.
    public let providerCode: Swift.String?
    /// The HTTP status, when a response failed.
    public let status: Swift.Int?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The stable code.
    ///   - message: What happened.
    public init(code: Swift.String, message: Swift.String) {
        self.code = code
        self.message = message
        providerCode = nil
        status = nil
    }

    /// The runtime's error under this type.
    init(_ error: LatchkeyRuntime.AuthError) {
        code = error.code.rawValue
        message = error.message
        providerCode = error.providerCode
        status = error.status
    }

    /// The code and message.
    public var description: Swift.String { "{{errorType | doc}}(\(code)): \(message)" }
}

/// Who is signed in, read from the verified access token.
public struct {{principalType | identifier}}: Swift.Sendable, Swift.Hashable {
    /// The stable identifier.
    public let id: Swift.String
{{#each principalClaims}}
    /// The `{{name | doc}}` claim.
    public let {{name | identifier}}: Swift.String
{{/each}}
    /// The email address, if known.
    public let email: Swift.String?
    /// The display name, if known.
    public let name: Swift.String?
    /// The role, if known.
    public let role: Swift.String?
    /// The granted scopes.
    public let scopes: [Swift.String]

    init(_ user: LatchkeyRuntime.User) {
        id = user.id
{{#each principalClaims}}
        {{name | identifier}} = user.attributes[{{name | string}}]?.string ?? ""
{{/each}}
        email = user.email
        name = user.name
        role = user.role
        scopes = user.scopes
    }
}

/// A signed-in session, as ``{{authType | doc}}/signIn()`` returns it. Its description holds no token.
public struct {{sessionType | identifier}}: Swift.Sendable, Swift.CustomStringConvertible {
    /// Who signed in.
    public let principal: {{principalType | identifier}}
    /// When the access token expires, if known.
    public let expiresAt: Foundation.Date?
{{#if hasServerHandoff}}
    private let handoff: LatchkeyRuntime.ServerHandoff?
    private let now: @Sendable () -> Foundation.Date
{{/if}}

    init(
        _ session: LatchkeyRuntime.Session, handoff: LatchkeyRuntime.ServerHandoff?,
        now: @escaping @Sendable () -> Foundation.Date
    ) {
        principal = {{principalType | identifier}}(session.userOrPlaceholder)
        expiresAt = session.expiresAt
{{#if hasServerHandoff}}
        self.handoff = handoff
        self.now = now
{{/if}}
    }
{{#if hasServerHandoff}}

    /// The payload to send to the app's own backend, for `JSONSerialization`: `access_token`, `refresh_token`,
    /// `token_type` (`"PASETO"`), `expires_in` (seconds from now) and `principal` (`gid`, `sub`, `email`, `role`,
    /// read from the verified access token); a missing value is `NSNull`. It holds tokens: never log it.
    /// - Returns: The JSON object.
    public func serverHandoff() -> [Swift.String: Any] {
        handoff?.jsonObject(expiresAt: expiresAt, now: now()) ?? [:]
    }
{{/if}}

    /// The principal and expiry, without tokens.
    public var description: Swift.String {
        "{{sessionType | doc}}(principal: \(principal.id), expiresAt: \(expiresAt.map { "\($0)" } ?? "unknown"))"
    }
}

"""#
}
