import Foundation
import LatchkeyTokens
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// `SessionDecoder.expiry`: `expires_in` above zero, else `expires_at`, else a JWT access token's `exp`, else an
/// `expires_in` of zero or less means expired at issue, else unknown.
@Suite("Session: which field sets the expiry")
struct SessionExpiryRuleTests {
    private static let now = Date(timeIntervalSince1970: 1_800_000_000)

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var members: [String: JSON]
        /// Seconds from `now` of the access token's `exp` (a JWT), or `nil` for an opaque token.
        var jwtExp: Double?
        /// Seconds from `now` of the server's `Date` header, or `nil` for none.
        var serverDate: Double?
        /// Seconds from `now` of the expected expiry, or `nil` for unknown.
        var expected: Double?
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "expires_in above zero wins over expires_at and exp",
            members: ["expires_in": .number(120), "expires_at": .number(now.timeIntervalSince1970 + 3600)],
            jwtExp: 600, expected: 120),
        Row(
            name: "expires_in 0 falls back to expires_at",
            members: ["expires_in": .number(0), "expires_at": .number(now.timeIntervalSince1970 + 3600)],
            expected: 3600),
        Row(
            name: "expires_in -60 falls back to expires_at in the past, corrected by the Date header",
            members: ["expires_in": .number(-60), "expires_at": .number(now.timeIntervalSince1970 - 1060)],
            serverDate: -1000, expected: -60),
        Row(
            name: "expires_in 0 falls back to the access token's exp",
            members: ["expires_in": .number(0)], jwtExp: 300, expected: 300),
        Row(
            name: "without expires_in or expires_at, the access token's exp, corrected by the Date header",
            members: [:], jwtExp: -700, serverDate: -1000, expected: 300),
        Row(
            name: "expires_in -60 and nothing else: expired at issue", members: ["expires_in": .number(-60)],
            expected: 0),
        Row(
            name: "expires_in 0 as text and nothing else: expired at issue", members: ["expires_in": .string("0")],
            expected: 0),
        Row(name: "nothing at all: unknown", members: [:], expected: nil),
        Row(
            name: "an unreadable expires_in and nothing else: unknown", members: ["expires_in": .string("soon")],
            expected: nil),
        Row(name: "a JWT without exp: unknown", members: [:], jwtExp: .nan, expected: nil),
    ]

    @Test("the first rule that applies sets the expiry", arguments: rows)
    func rule(_ row: Row) throws {
        let decoder = SessionDecoder(
            provider: "acme", sessionMapping: SessionMapping(expiresAt: "/expires_at"), userMapping: UserMapping())
        var members = row.members
        members["access_token"] = .string(row.jwtExp.map(Self.jwt(exp:)) ?? "opaque-access-token")
        let session = try decoder.session(
            from: .object(members), now: Self.now, serverDate: row.serverDate.map(Self.now.addingTimeInterval))
        #expect(session.expiresAt == row.expected.map(Self.now.addingTimeInterval))
    }

    @Test("a token issued already expired counts as expired at once; an unknown expiry never does")
    func expiredAtIssue() throws {
        let decoder = SessionDecoder(provider: "acme", sessionMapping: SessionMapping(), userMapping: UserMapping())
        let expired = try decoder.session(
            from: .object(["access_token": .string("a"), "expires_in": .number(-60)]), now: Self.now, serverDate: nil)
        #expect(expired.isExpired(at: Self.now))
        let unknown = try decoder.session(from: .object(["access_token": .string("a")]), now: Self.now, serverDate: nil)
        #expect(!unknown.isExpired(at: .distantFuture))
    }

    @Test("exp is read from a JWT only: a PASETO, an opaque token or a malformed JWT gives no expiry")
    func onlyJWTs() {
        #expect(SessionDecoder.unverifiedExpiry(ofJWT: Self.jwt(exp: 10)) == Self.now.timeIntervalSince1970 + 10)
        for token in ["opaque", "v4.public.eyJleHAiOjF9", "a.b.c", "a.b", Self.jwt(exp: 10) + ".extra", ""] {
            #expect(SessionDecoder.unverifiedExpiry(ofJWT: token) == nil, "\(token)")
        }
    }

    /// An unsigned-looking JWT (`RS256` header, a dummy signature) whose `exp` is `seconds` after `now`; NaN for
    /// a payload without `exp`.
    static func jwt(exp seconds: Double) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"RS256","typ":"JWT"}"#.utf8))
        let payload =
            seconds.isNaN
            ? #"{"sub":"u-1"}"# : #"{"sub":"u-1","exp":\#(Int(now.timeIntervalSince1970 + seconds))}"#
        return header + "." + Base64URL.encode(Array(payload.utf8)) + "." + Base64URL.encode([1, 2, 3, 4])
    }
}
