import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// What an app hands to its own backend after signing in with a provider whose access tokens are PASETO
/// `v4.public` tokens (Base IdP): the tokens, their remaining lifetime, and the principal read from the
/// **verified** access token.
///
/// Its JSON (``jsonData``) is
/// `{"access_token", "refresh_token", "token_type": "PASETO", "expires_in", "principal": {"gid", "sub",
/// "email", "role"}}`; every key is always present (`null` when the value is missing). The backend should
/// verify the access token itself with the issuer's key set; the principal is a convenience.
///
/// It holds tokens: never log it.
public struct ServerHandoff: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The `token_type` of every handoff.
    public static let pasetoTokenType = "PASETO"

    /// Who signed in, from the access token's verified claims.
    public struct Principal: Sendable, Hashable, Codable {
        /// The global identifier (`gid`).
        public var gid: String
        /// The subject (`sub`).
        public var sub: String
        /// The email address (`email`), if the token carries one.
        public var email: String?
        /// The role (`role`), if the token carries one.
        public var role: String?

        /// Creates a principal.
        /// - Parameters:
        ///   - gid: The global identifier.
        ///   - sub: The subject.
        ///   - email: The email address.
        ///   - role: The role.
        public init(gid: String, sub: String, email: String? = nil, role: String? = nil) {
            self.gid = gid
            self.sub = sub
            self.email = email
            self.role = role
        }

        enum CodingKeys: String, CodingKey {
            case gid, sub, email, role
        }

        /// Encodes every key, `null` for a missing email or role.
        /// - Parameter encoder: The encoder.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(gid, forKey: .gid)
            try container.encode(sub, forKey: .sub)
            try container.encode(email, forKey: .email)
            try container.encode(role, forKey: .role)
        }
    }

    /// The access token.
    public var accessToken: String
    /// The refresh token, when the provider issued one.
    public var refreshToken: String?
    /// Always ``pasetoTokenType``.
    public var tokenType: String
    /// Whole seconds until the access token expires (never negative).
    public var expiresIn: Int
    /// Who signed in.
    public var principal: Principal

    /// Creates a handoff.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - refreshToken: The refresh token.
    ///   - tokenType: The token type (default ``pasetoTokenType``).
    ///   - expiresIn: Whole seconds until the access token expires.
    ///   - principal: Who signed in.
    public init(
        accessToken: String, refreshToken: String?, tokenType: String = ServerHandoff.pasetoTokenType, expiresIn: Int,
        principal: Principal
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.principal = principal
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case principal
    }

    /// Encodes every key, `null` for a missing refresh token.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encode(refreshToken, forKey: .refreshToken)
        try container.encode(tokenType, forKey: .tokenType)
        try container.encode(expiresIn, forKey: .expiresIn)
        try container.encode(principal, forKey: .principal)
    }

    /// The JSON object, keys sorted.
    public var jsonData: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and nested objects only: encoding cannot fail.
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }

    /// A summary with the tokens redacted.
    public var description: String {
        "ServerHandoff(principal: \(principal.gid), expiresIn: \(expiresIn), accessToken: "
            + "\(Session.redact(accessToken))\(refreshToken.map { ", refreshToken: \(Session.redact($0))" } ?? ""))"
    }
}

extension AuthClient {
    /// The payload an app sends to its own backend after signing in: see ``ServerHandoff``.
    ///
    /// The session is refreshed first when it expires within the refresh leeway, and its access token is
    /// verified (signature against the provider's key set, then `exp`, `nbf`, `iat`, `iss`, `aud`) before
    /// the principal is read from its claims.
    /// - Returns: The handoff.
    /// - Throws: `invalid_configuration` when the provider's access tokens are not PASETO `v4.public` tokens;
    ///   `session_missing` when signed out; `invalid_token` when the token fails verification or has no
    ///   `gid` or `sub`; the errors of ``currentSession(forceRefresh:)``.
    public func serverHandoffPayload() async throws(AuthError) -> ServerHandoff {
        guard provider.tokens.accessTokenFormat.behaviour.offersServerHandoff else {
            throw failure(
                .invalidConfiguration, "A server handoff needs PASETO v4.public access tokens; this provider's are not."
            )
        }
        let session = try await currentSession()
        let claims = try await verifiedAccessTokenClaims(session.accessToken)
        guard let gid = claims["gid"]?.string, !gid.isEmpty, let sub = claims["sub"]?.string, !sub.isEmpty else {
            throw failure(.invalidToken, "The access token has no gid or sub claim.")
        }
        let expiry = session.expiresAt ?? claims["exp"]?.string.flatMap(RFC3339DateTime.parse)
        let remaining = expiry.map { $0.timeIntervalSince(now()).rounded(.down) } ?? 0
        return ServerHandoff(
            accessToken: session.accessToken, refreshToken: session.refreshToken,
            expiresIn: remaining > 0 ? Int(min(remaining, Double(Int32.max))) : 0,
            principal: ServerHandoff.Principal(
                gid: gid, sub: sub, email: claims["email"]?.string, role: claims["role"]?.string))
    }

    /// ``serverHandoffPayload()`` as JSON (keys sorted):
    /// `{"access_token", "refresh_token", "token_type": "PASETO", "expires_in", "principal": {"gid", "sub",
    /// "email", "role"}}`.
    /// - Returns: The JSON bytes. They hold tokens: never log them.
    /// - Throws: As ``serverHandoffPayload()``.
    public func serverHandoff() async throws(AuthError) -> Data {
        try await serverHandoffPayload().jsonData
    }
}
