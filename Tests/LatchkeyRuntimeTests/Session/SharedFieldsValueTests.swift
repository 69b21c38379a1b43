import Foundation
import LatchkeyTokens
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// `Session`, `User` and `AuthError` keep their fields behind one shared reference (`SharedFields`): they must
/// still behave as plain values, encode exactly as their synthesised `Codable` did, and compare and hash by
/// every field.
@Suite("Values behind one reference: Session, User and AuthError stay plain values")
struct SharedFieldsValueTests {
    private let issued = Date(timeIntervalSince1970: 1_800_000_000)

    private func sortedJSON(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("a copy changed leaves the original as it was, for every one of the three types")
    func valueSemantics() {
        let session = Session(accessToken: "a", refreshToken: "r", issuedAt: issued, provider: "acme")
        var changed = session
        changed.accessToken = "b"
        changed.user = User(id: "u")
        #expect(session.accessToken == "a" && session.user == nil)
        #expect(changed.accessToken == "b" && changed.refreshToken == "r" && changed.user?.id == "u")
        #expect(session != changed)

        let user = User(id: "u", email: "u@example.com", scopes: ["openid"])
        var renamed = user
        renamed.name = "U"
        #expect(user.name == nil && renamed.name == "U" && renamed.email == "u@example.com")

        let error = AuthError(.invalidResponse, "first", status: 400, provider: "acme")
        var mapped = error
        mapped.providerMessage = "echoed"
        mapped.code = .invalidCredentials
        #expect(error.code == .invalidResponse && error.providerMessage == nil)
        #expect(mapped.code == .invalidCredentials && mapped.message == "first" && mapped.status == 400)
    }

    @Test("equal values hash alike, and a difference in any one field makes them unequal")
    func equalityAndHashing() {
        let base = AuthError(.invalidResponse, "m", providerCode: "p", status: 400, provider: "acme")
        let same = AuthError(.invalidResponse, "m", providerCode: "p", status: 400, provider: "acme")
        #expect(base == same && base.hashValue == same.hashValue)
        var variants: [AuthError] = []
        for change in 0..<6 {
            var other = base
            switch change {
            case 0: other.code = .invalidRequest
            case 1: other.message = "n"
            case 2: other.providerCode = nil
            case 3: other.providerMessage = "x"
            case 4: other.status = 401
            default: other.provider = "other"
            }
            variants.append(other)
        }
        #expect(variants.allSatisfy { $0 != base })
        #expect(Set(variants + [base, same]).count == 7)

        let session = Session(accessToken: "a", issuedAt: issued, provider: "acme", captures: ["cloudid": "1"])
        var recaptured = session
        recaptured.captures = ["cloudid": "2"]
        #expect(session != recaptured)
        #expect(Set([session, session, recaptured]).count == 2)
    }

    @Test("Session and User encode exactly the members synthesised Codable wrote, absent optionals left out")
    func codableBytes() throws {
        let user = User(id: "u", email: "u@example.com", scopes: ["openid"], attributes: .object(["k": .string("v")]))
        #expect(
            try sortedJSON(user)
                == #"{"attributes":{"k":"v"},"email":"u@example.com","id":"u","scopes":["openid"]}"#)
        let session = Session(
            accessToken: "a", refreshToken: "r", expiresAt: issued.addingTimeInterval(60), issuedAt: issued,
            user: user, provider: "acme")
        #expect(
            try sortedJSON(session)
                == #"{"accessToken":"a","captures":{},"expiresAt":1800000060,"issuedAt":1800000000,"provider":"acme","#
                + #""refreshToken":"r","tokenType":"bearer","user":{"attributes":{"k":"v"},"email":"u@example.com","#
                + #""id":"u","scopes":["openid"]}}"#)

        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        #expect(try decoder.decode(Session.self, from: Data(try sortedJSON(session).utf8)) == session)
        #expect(try decoder.decode(User.self, from: Data(try sortedJSON(user).utf8)) == user)
        // As synthesised: `scopes` and `attributes` are required members of a user.
        #expect(throws: DecodingError.self) {
            try decoder.decode(User.self, from: Data(#"{"id":"u","attributes":{}}"#.utf8))
        }
    }

    @Test("dump shows a user's and an error's fields by name; a session still shows only its redacted summary")
    func reflection() {
        var dumped = ""
        dump(User(id: "u-1", email: "u@example.com"), to: &dumped)
        #expect(dumped.contains("id: \"u-1\"") && dumped.contains("email: Optional(\"u@example.com\")"))
        #expect(!dumped.contains("storage"))

        var error = ""
        dump(AuthError(.invalidResponse, "no access token", status: 502), to: &error)
        #expect(error.contains("message: \"no access token\"") && error.contains("status: Optional(502)"))
        #expect(!error.contains("storage"))

        var session = ""
        dump(Session(accessToken: "secret-token", issuedAt: issued, provider: "acme"), to: &session)
        #expect(!session.contains("secret-token") && session.contains("redacted"))
    }
}
