import Foundation
import LatchkeyPlatform
import LatchkeyTokens

/// An access token a server-side tool obtained for itself with the client credentials grant.
///
/// It belongs to the client, not to a user: it is never stored as the session, and no refresh token is
/// kept (RFC 6749 §4.4.3: none should be issued; one that is issued anyway is dropped).
public struct ClientCredentialsToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The access token. Never log it.
    public let accessToken: String
    /// The token type (`Bearer`).
    public let tokenType: String
    /// When it expires, or `nil` when the provider did not say (such a token is not cached).
    public let expiresAt: Date?
    /// When it was received.
    public let issuedAt: Date
    /// The granted scopes, when the provider listed them.
    public let scopes: [String]

    /// Creates a token.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - tokenType: The token type.
    ///   - expiresAt: When it expires.
    ///   - issuedAt: When it was received.
    ///   - scopes: The granted scopes.
    public init(accessToken: String, tokenType: String, expiresAt: Date?, issuedAt: Date, scopes: [String]) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.scopes = scopes
    }

    /// Whether the token is expired, or expires within `leeway`, at a date.
    /// - Parameters:
    ///   - date: The time to check.
    ///   - leeway: How early a token counts as expired.
    /// - Returns: `true` when expired; `true` as well when no expiry is known (so it is never reused).
    public func isExpired(at date: Date, leeway: LatchkeyDuration = .zero) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt.timeIntervalSince(date) <= leeway.timeInterval
    }

    /// The type, expiry and scopes; never the token.
    public var description: String {
        "ClientCredentialsToken(type: \(tokenType), expiresAt: \(expiresAt.map { "\($0)" } ?? "unknown"), "
            + "scopes: \(scopes))"
    }

    /// Same as ``description``: the token is left out.
    public var debugDescription: String { description }

    /// A mirror without the token, so `dump` and debuggers do not show it.
    public var customMirror: Mirror { Mirror(self, children: ["summary": description]) }
}

/// The client credentials tokens an ``AuthClient`` holds, by requested scope, and the requests in flight.
struct ClientCredentialsCache: Sendable {
    /// One request in flight.
    struct Flight: Sendable {
        /// Tells flights apart.
        let id: Int
        /// The cache's ``ClientCredentialsCache/generation`` when the request started.
        let generation: Int
        /// The request.
        let task: Task<Result<ClientCredentialsToken, AuthError>, Never>
    }

    /// Cached tokens by scope string.
    var tokens: [String: ClientCredentialsToken] = [:]
    /// Requests in flight by scope string.
    var flights: [String: Flight] = [:]
    /// The next flight's id.
    var nextID = 0
    /// Bumped by every discard: a flight started in an older generation is neither cached nor returned.
    var generation = 0
}
