import Foundation
import LatchkeyPlatform
import LatchkeyTokens

/// A signed-in session: the tokens with an absolute expiry, and the user.
///
/// Its ``description`` and ``debugDescription`` redact every token, so a session can be logged or
/// printed safely.
public struct Session: Sendable, Codable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The stored fields, behind one reference: a session is copied, returned and published often, and each
    /// copy is one retain.
    private struct Fields: Sendable, Hashable {
        var accessToken: String
        var refreshToken: String?
        var idToken: String?
        var tokenType: String
        var expiresAt: Date?
        var issuedAt: Date
        var scope: String?
        var user: User?
        var provider: String
        var captures: [String: String]
        var dpopKey: DPoPKey?
    }
    private var storage: SharedFields<Fields>

    /// The access token.
    public var accessToken: String {
        get { storage.fields.accessToken }
        set { storage = storage.updating { $0.accessToken = newValue } }
    }
    /// The refresh token, when the provider issued one.
    public var refreshToken: String? {
        get { storage.fields.refreshToken }
        set { storage = storage.updating { $0.refreshToken = newValue } }
    }
    /// The OpenID Connect ID token, when the provider issued one.
    public var idToken: String? {
        get { storage.fields.idToken }
        set { storage = storage.updating { $0.idToken = newValue } }
    }
    /// The token type, usually `bearer`.
    public var tokenType: String {
        get { storage.fields.tokenType }
        set { storage = storage.updating { $0.tokenType = newValue } }
    }
    /// When the access token expires (local clock), if the provider said.
    public var expiresAt: Date? {
        get { storage.fields.expiresAt }
        set { storage = storage.updating { $0.expiresAt = newValue } }
    }
    /// When the session was issued (local clock).
    public var issuedAt: Date {
        get { storage.fields.issuedAt }
        set { storage = storage.updating { $0.issuedAt = newValue } }
    }
    /// The granted scopes, as the provider sent them.
    public var scope: String? {
        get { storage.fields.scope }
        set { storage = storage.updating { $0.scope = newValue } }
    }
    /// The user, when known.
    public var user: User? {
        get { storage.fields.user }
        set { storage = storage.updating { $0.user = newValue } }
    }
    /// The descriptor name of the provider.
    public var provider: String {
        get { storage.fields.provider }
        set { storage = storage.updating { $0.provider = newValue } }
    }
    /// Values the descriptor's `captures` read from responses (Atlassian's `cloudid`), by name: kept in the
    /// stored session record and usable as `{NAME}` in later requests. Never printed by ``description``.
    public var captures: [String: String] {
        get { storage.fields.captures }
        set { storage = storage.updating { $0.captures = newValue } }
    }
    /// The DPoP key the tokens are bound to (RFC 9449), when the client proves possession: made for the sign-in,
    /// kept through refreshes, stored with the session record, and never encoded by `Codable`, described or
    /// dumped. A `Bearer` access token is not bound to it, but the refresh token is (RFC 9449 §5), so refreshes
    /// prove it whatever the access token's type.
    var dpopKey: DPoPKey? {
        get { storage.fields.dpopKey }
        set { storage = storage.updating { $0.dpopKey = newValue } }
    }

    /// The members `Codable` reads and writes: the DPoP key is not one of them (it is never exported).
    private enum CodingKeys: String, CodingKey {
        case accessToken, refreshToken, idToken, tokenType, expiresAt, issuedAt, scope, user, provider, captures
    }

    /// Creates a session.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - refreshToken: The refresh token.
    ///   - idToken: The ID token.
    ///   - tokenType: The token type.
    ///   - expiresAt: The absolute expiry.
    ///   - issuedAt: When it was issued.
    ///   - scope: The granted scopes.
    ///   - user: The user.
    ///   - provider: The descriptor name.
    ///   - captures: Values captured from responses, by name.
    public init(
        accessToken: String, refreshToken: String? = nil, idToken: String? = nil, tokenType: String = "bearer",
        expiresAt: Date? = nil, issuedAt: Date, scope: String? = nil, user: User? = nil, provider: String,
        captures: [String: String] = [:]
    ) {
        storage = SharedFields(
            Fields(
                accessToken: accessToken, refreshToken: refreshToken, idToken: idToken, tokenType: tokenType,
                expiresAt: expiresAt, issuedAt: issuedAt, scope: scope, user: user, provider: provider,
                captures: captures))
    }

    /// Decodes a session; ``captures`` may be absent (a session encoded before captures existed).
    /// - Parameter decoder: The decoder.
    /// - Throws: A decoding error for a missing or mistyped member.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            accessToken: try container.decode(String.self, forKey: .accessToken),
            refreshToken: try container.decodeIfPresent(String.self, forKey: .refreshToken),
            idToken: try container.decodeIfPresent(String.self, forKey: .idToken),
            tokenType: try container.decode(String.self, forKey: .tokenType),
            expiresAt: try container.decodeIfPresent(Date.self, forKey: .expiresAt),
            issuedAt: try container.decode(Date.self, forKey: .issuedAt),
            scope: try container.decodeIfPresent(String.self, forKey: .scope),
            user: try container.decodeIfPresent(User.self, forKey: .user),
            provider: try container.decode(String.self, forKey: .provider),
            captures: try container.decodeIfPresent([String: String].self, forKey: .captures) ?? [:])
    }

    /// Encodes the session: every member but the DPoP key, an absent optional left out.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(idToken, forKey: .idToken)
        try container.encode(tokenType, forKey: .tokenType)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encode(issuedAt, forKey: .issuedAt)
        try container.encodeIfPresent(scope, forKey: .scope)
        try container.encodeIfPresent(user, forKey: .user)
        try container.encode(provider, forKey: .provider)
        try container.encode(captures, forKey: .captures)
    }

    /// Whether the access token is expired at a moment, or will be within the leeway.
    /// - Parameters:
    ///   - date: The moment (local clock).
    ///   - leeway: How long before the expiry the session already counts as expired.
    /// - Returns: `true` when expired; `false` when no expiry is known.
    public func isExpired(at date: Date, leeway: LatchkeyDuration = .zero) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(date) <= leeway.timeInterval
    }

    /// Whether the ID token came with the current tokens and expires within the leeway at a moment (its `exp`,
    /// read without verification; it was verified when the session was stored). An ID token older than the
    /// session's last token response by more than the leeway was not renewed by the last refresh (many
    /// providers never renew it), so its expiry says nothing the next refresh would change: it counts as not
    /// expiring, and refreshing for it cannot loop.
    /// - Parameters:
    ///   - date: The moment (local clock).
    ///   - leeway: How long before its expiry the ID token already counts as expiring.
    /// - Returns: `true` when a renewable ID token is expiring; `false` without an ID token or its `exp`.
    func isIDTokenExpiring(at date: Date, leeway: LatchkeyDuration) -> Bool {
        guard let idToken, let claims = JWTPayload.claims(of: idToken), let exp = claims["exp"]?.double else {
            return false
        }
        if let iat = claims["iat"]?.double,
            Date(timeIntervalSince1970: iat).addingTimeInterval(leeway.timeInterval) < issuedAt
        {
            return false
        }
        return Date(timeIntervalSince1970: exp).timeIntervalSince(date) <= leeway.timeInterval
    }

    /// The subject: the user's id, or the `sub` claim of the ID or access token when they are JWTs.
    public var subject: String? {
        if let id = user?.id { return id }
        for token in [idToken, accessToken].compactMap({ $0 }) {
            if let sub = JWTPayload.claims(of: token)?["sub"]?.string { return sub }
        }
        return nil
    }

    /// The user, or a placeholder that carries only the subject when the provider sent no user.
    public var userOrPlaceholder: User { user ?? User(id: subject ?? "") }

    /// Whether the access token is DPoP-bound (`token_type` `DPoP`, any letter case): resource requests carry it
    /// with the `DPoP` scheme and a proof.
    var isDPoPBound: Bool { tokenType.caseInsensitiveCompare("DPoP") == .orderedSame }

    /// The key a resource request proves possession of: the DPoP key of a DPoP-bound session.
    var boundProofKey: DPoPKey? { isDPoPBound ? dpopKey : nil }

    /// A summary with every token redacted.
    public var description: String {
        var parts = ["provider: \(provider)", "user: \(user?.id ?? subject ?? "unknown")"]
        if let expiresAt { parts.append("expiresAt: \(expiresAt)") }
        parts.append("accessToken: \(Session.redact(accessToken))")
        if let refreshToken { parts.append("refreshToken: \(Session.redact(refreshToken))") }
        if let idToken { parts.append("idToken: \(Session.redact(idToken))") }
        return "Session(\(parts.joined(separator: ", ")))"
    }

    /// The same redacted summary as ``description``.
    public var debugDescription: String { description }

    /// A mirror that shows only the redacted summary, so `dump` never prints a token.
    public var customMirror: Mirror { Mirror(self, children: ["summary": description]) }

    static func redact(_ token: String) -> String { "<redacted \(token.count) chars>" }
}
