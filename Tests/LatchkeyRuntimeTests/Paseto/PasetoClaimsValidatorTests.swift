import Foundation
@_spi(Generated) import LatchkeyRuntime
import LatchkeyTokens
import Testing

@Suite("PASETO claims validation")
struct PasetoClaimsValidatorTests {
    /// 2030-06-01T12:00:00Z, the injected clock.
    static let now = Date(timeIntervalSince1970: 1_906_545_600)
    let validator = PasetoClaimsValidator(issuer: "https://id.example.com", audience: "api.example.com")

    static func claims(_ overrides: [String: JSON] = [:], removing removed: [String] = []) -> [String: JSON] {
        var claims: [String: JSON] = [
            "iss": .string("https://id.example.com"),
            "aud": .string("api.example.com"),
            "sub": .string("user-1"),
            "iat": .string("2030-06-01T11:55:00Z"),
            "nbf": .string("2030-06-01T11:55:00Z"),
            "exp": .string("2030-06-01T12:10:00Z"),
        ]
        claims.merge(overrides) { $1 }
        for name in removed { claims[name] = nil }
        return claims
    }

    func expectRejected(
        _ claims: [String: JSON], by validator: PasetoClaimsValidator? = nil, at now: Date = Self.now,
        message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: AuthError.self, sourceLocation: sourceLocation) {
            try (validator ?? self.validator).validate(claims, now: now)
        }
        #expect(error?.code == .invalidToken, sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }

    @Test("the injected clock is what it says")
    func clock() {
        #expect(Self.now == ISO8601DateFormatter().date(from: "2030-06-01T12:00:00Z"))
    }

    @Test("valid claims pass")
    func valid() throws {
        try validator.validate(Self.claims(), now: Self.now)
        try PasetoClaimsValidator(issuer: nil, audience: nil).validate(
            ["exp": .string("2030-06-01T12:10:00Z")], now: Self.now)
    }

    @Test("an expired token is rejected, within the skew it is not")
    func expired() throws {
        let past = Self.claims(["exp": .string("2030-06-01T11:59:00Z")])
        // 60 s past expiry: exactly at the edge of the default skew, rejected.
        expectRejected(past, message: "PASETO token has expired (exp is in the past)")
        try validator.validate(past, now: Self.now.addingTimeInterval(-1))
        var lenient = validator
        lenient.skew = 120
        try lenient.validate(past, now: Self.now)
        var strict = validator
        strict.skew = 0
        expectRejected(
            Self.claims(["exp": .string("2030-06-01T12:00:00Z")]), by: strict,
            message: "PASETO token has expired (exp is in the past)")
        try strict.validate(Self.claims(["exp": .string("2030-06-01T12:00:00.5Z")]), now: Self.now)
    }

    @Test("a token that is not valid yet is rejected")
    func notYetValid() throws {
        let future = Self.claims(["nbf": .string("2030-06-01T12:05:00Z")])
        expectRejected(future, message: "PASETO token is not valid yet (nbf is in the future)")
        try validator.validate(future, now: Self.now.addingTimeInterval(240))
        try validator.validate(Self.claims(["nbf": .string("2030-06-01T12:01:00Z")]), now: Self.now)
    }

    @Test("a token issued in the future is rejected, within the skew it is not")
    func issuedInFuture() throws {
        expectRejected(
            Self.claims(["iat": .string("2030-06-01T12:05:00+00:00")]),
            message: "PASETO token was issued in the future (iat)")
        expectRejected(
            Self.claims(["iat": .string("2030-06-01T12:01:00.001Z")]),
            message: "PASETO token was issued in the future (iat)")
        try validator.validate(Self.claims(["iat": .string("2030-06-01T12:00:59Z")]), now: Self.now)
        try validator.validate(Self.claims(["iat": .string("2030-06-01T14:00:30+02:00")]), now: Self.now)
    }

    @Test("exp is required unless turned off")
    func expirationRequired() throws {
        expectRejected(Self.claims(removing: ["exp"]), message: "PASETO token has no exp claim")
        var optional = validator
        optional.requiresExpiration = false
        try optional.validate(Self.claims(removing: ["exp"]), now: Self.now)
    }

    @Test("date claims must be RFC 3339 strings", arguments: ["exp", "nbf", "iat"])
    func malformedDates(_ name: String) {
        for value: JSON in [
            .number(1_906_546_200), .string("2030-06-01 12:10:00Z"), .string("2030-06-01t12:10:00z"),
            .string("tomorrow"), .null,
        ] {
            expectRejected(
                Self.claims([name: value]), message: "PASETO \(name) claim is not an RFC 3339 date-time string")
        }
    }

    @Test("a wrong or missing issuer is rejected")
    func issuer() {
        expectRejected(
            Self.claims(["iss": .string("https://evil.example.com")]),
            message: #"PASETO iss claim is not "https://id.example.com""#)
        expectRejected(Self.claims(removing: ["iss"]), message: "PASETO token has no iss claim")
        expectRejected(
            Self.claims(["iss": .array([.string("https://id.example.com")])]),
            message: "PASETO iss claim is not a string")
    }

    @Test("a wrong, missing or non-string audience is rejected")
    func audience() {
        expectRejected(
            Self.claims(["aud": .string("other.example.com")]), message: #"PASETO aud claim is not "api.example.com""#)
        expectRejected(Self.claims(removing: ["aud"]), message: "PASETO token has no aud claim")
        expectRejected(
            Self.claims(["aud": .array([.string("api.example.com")])]), message: "PASETO aud claim is not a string")
    }

    @Test("claims compare byte for byte, not by Unicode equivalence")
    func exactComparison() {
        let composed = PasetoClaimsValidator(issuer: "caf\u{E9}", audience: nil)
        expectRejected(
            Self.claims(["iss": .string("cafe\u{301}")]), by: composed, message: "PASETO iss claim is not \"caf\u{E9}\""
        )
    }

    @Test("the subject is checked only when asked for")
    func subject() throws {
        var withSubject = validator
        withSubject.subject = "user-1"
        try withSubject.validate(Self.claims(), now: Self.now)
        expectRejected(
            Self.claims(["sub": .string("user-2")]), by: withSubject, message: #"PASETO sub claim is not "user-1""#)
        try validator.validate(Self.claims(["sub": .string("user-2")]), now: Self.now)
    }
}
