import Foundation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// Session records are written and read without `Codable`; records `JSONEncoder` wrote (versions 1 and 2)
/// must still read, and `JSONDecoder` must still read what is written now.
@Suite("Store: session records written and read without Codable")
struct StoredSessionRecordTests {
    static let identity = ProviderIdentity(provider: ProviderSpec(name: "acme", displayName: "Acme"), inputs: [:])

    /// The envelope as `JSONEncoder` wrote it before (and as `JSONDecoder` reads it).
    struct CodableEnvelope: Codable {
        var version: Int
        var provider: String?
        var binding: String?
        var session: Session
    }

    static let sessions: [Session] = [
        Session(accessToken: "at", issuedAt: Date(timeIntervalSince1970: 1_733_270_000), provider: "acme"),
        Session(
            accessToken: "at-2", refreshToken: "rt-2", idToken: "a.b.c", tokenType: "Bearer",
            expiresAt: Date(timeIntervalSince1970: 1_733_273_600.123_456), issuedAt: Date(timeIntervalSince1970: 0.1),
            scope: "openid profile",
            user: User(
                id: "u-1", email: "ada@example.com", name: "Ada \"Lovelace\" / é\n😀", role: "admin",
                scopes: ["read", "write"],
                attributes: .object([
                    "id": .string("u-1"), "n": .number(-12.5), "big": .number(1e300), "ok": .bool(true),
                    "none": .null, "list": .array([.number(1), .string("\u{1}")]), "nested": .object([:]),
                ])),
            provider: "acme"),
        Session(
            accessToken: "at-3", expiresAt: Date(timeIntervalSince1970: -1.5),
            issuedAt: Date(timeIntervalSinceReferenceDate: 0),
            user: User(id: "u-3"), provider: "acme"),
    ]

    private static func codableEncoded(_ envelope: CodableEnvelope) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(envelope)
    }

    private static func codableDecoded(_ data: Data) throws -> CodableEnvelope {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(CodableEnvelope.self, from: data)
    }

    @Test("a record written now reads back equal, and JSONDecoder reads it as the earlier reader did")
    func roundTrip() throws {
        for session in Self.sessions {
            let data = try StoredRecords.encode(session, identity: Self.identity)
            #expect(StoredRecords.readSession(data, identity: Self.identity) == .bound(session))
            let decoded = try Self.codableDecoded(data)
            #expect(decoded.version == 2)
            #expect(decoded.provider == "acme")
            #expect(decoded.binding == Self.identity.digest)
            #expect(decoded.session == session)
        }
    }

    @Test("a record's text is what JSON.serialized writes for the same members (names sorted, nil left out)")
    func textMatchesSerializedJSON() throws {
        for session in Self.sessions {
            var members: [String: JSON] = [
                "accessToken": .string(session.accessToken), "tokenType": .string(session.tokenType),
                "issuedAt": .number(session.issuedAt.timeIntervalSince1970), "provider": .string(session.provider),
            ]
            if let refreshToken = session.refreshToken { members["refreshToken"] = .string(refreshToken) }
            if let idToken = session.idToken { members["idToken"] = .string(idToken) }
            if let scope = session.scope { members["scope"] = .string(scope) }
            if let expiresAt = session.expiresAt { members["expiresAt"] = .number(expiresAt.timeIntervalSince1970) }
            if let user = session.user {
                var fields: [String: JSON] = [
                    "id": .string(user.id), "scopes": .array(user.scopes.map(JSON.string)),
                    "attributes": user.attributes,
                ]
                if let email = user.email { fields["email"] = .string(email) }
                if let name = user.name { fields["name"] = .string(name) }
                if let role = user.role { fields["role"] = .string(role) }
                members["user"] = .object(fields)
            }
            let expected = JSON.object([
                "version": .number(2), "provider": .string("acme"), "binding": .string(Self.identity.digest),
                "session": .object(members),
            ]).serialized
            #expect(try StoredRecords.encode(session, identity: Self.identity) == expected)
        }
    }

    @Test("a version 2 record JSONEncoder wrote reads as this client's session")
    func readsCodableVersion2() throws {
        for session in Self.sessions {
            let data = try Self.codableEncoded(
                CodableEnvelope(version: 2, provider: "acme", binding: Self.identity.digest, session: session))
            #expect(StoredRecords.readSession(data, identity: Self.identity) == .bound(session))
        }
    }

    @Test("a version 1 record JSONEncoder wrote reads as legacy; other bindings and versions are refused")
    func readsOtherRecords() throws {
        let session = Self.sessions[1]
        let legacy = try Self.codableEncoded(CodableEnvelope(version: 1, session: session))
        #expect(StoredRecords.readSession(legacy, identity: Self.identity) == .legacy(session))
        let other = try Self.codableEncoded(
            CodableEnvelope(version: 2, provider: "acme", binding: String(repeating: "0", count: 64), session: session))
        #expect(StoredRecords.readSession(other, identity: Self.identity) == .otherBinding)
        let future = try Self.codableEncoded(
            CodableEnvelope(version: 3, provider: "acme", binding: Self.identity.digest, session: session))
        #expect(StoredRecords.readSession(future, identity: Self.identity) == .unreadable)
    }

    @Test(
        "records of unusual shape are decided as JSONDecoder decided them",
        arguments: [
            // An integral version written as a decimal: JSONDecoder reads it as 2.
            (
                #"{"version":2.0,"provider":"acme","binding":"DIGEST","session":{"accessToken":"a","tokenType":"bearer","issuedAt":1,"provider":"acme"}}"#,
                "bound"
            ),
            (
                #"{"version":2,"provider":"acme","binding":"DIGEST","session":{"accessToken":"a","tokenType":"bearer","issuedAt":1,"provider":"acme","refreshToken":null,"user":null}}"#,
                "bound"
            ),
            (
                #"{"version":2,"provider":"acme","binding":"DIGEST","session":{"accessToken":"a","tokenType":"bearer","issuedAt":"1","provider":"acme"}}"#,
                "unreadable"
            ),
            (
                #"{"version":2,"provider":"acme","binding":"DIGEST","session":{"accessToken":7,"tokenType":"bearer","issuedAt":1,"provider":"acme"}}"#,
                "unreadable"
            ),
            (
                #"{"version":2,"provider":"acme","binding":"DIGEST","session":{"tokenType":"bearer","issuedAt":1,"provider":"acme"}}"#,
                "unreadable"
            ),
            (
                #"{"version":2,"provider":"acme","binding":"DIGEST","session":{"accessToken":"a","tokenType":"bearer","issuedAt":1,"provider":"acme","user":{"id":"u","scopes":[1],"attributes":{}}}}"#,
                "unreadable"
            ),
            (
                #"{"version":2,"provider":"acme","binding":"DIGEST","session":{"accessToken":"a","tokenType":"bearer","issuedAt":1,"provider":"acme","user":{"id":"u","attributes":{}}}}"#,
                "unreadable"
            ),
            (
                #"{"version":2.5,"provider":"acme","binding":"DIGEST","session":{"accessToken":"a","tokenType":"bearer","issuedAt":1,"provider":"acme"}}"#,
                "unreadable"
            ),
            (
                #"{"version":"2","provider":"acme","binding":"DIGEST","session":{"accessToken":"a","tokenType":"bearer","issuedAt":1,"provider":"acme"}}"#,
                "unreadable"
            ),
            (
                #"{"version":2,"provider":"other","binding":"DIGEST","session":{"accessToken":"a","tokenType":"bearer","issuedAt":1,"provider":"acme"}}"#,
                "otherBinding"
            ),
            (
                #"{"version":2,"provider":"acme","binding":"DIGEST","session":{"accessToken":"a","tokenType":"bearer","issuedAt":1,"provider":"other"}}"#,
                "otherBinding"
            ),
            (#"{"version":2,"provider":"acme","binding":"DIGEST","session":{"accessToken":"a""#, "unreadable"),
            ("[]", "unreadable"),
        ])
    func unusualShapes(template: String, expected: String) {
        let data = Data(template.replacingOccurrences(of: "DIGEST", with: Self.identity.digest).utf8)
        let reading = StoredRecords.readSession(data, identity: Self.identity)
        switch (reading, expected) {
        case (.bound, "bound"), (.unreadable, "unreadable"), (.otherBinding, "otherBinding"): break
        default: Issue.record("read as \(reading), expected \(expected)")
        }
    }

    @Test("a date that is not finite is not stored (JSONEncoder refused it too)")
    func nonFiniteDate() {
        let session = Session(
            accessToken: "at", expiresAt: Date(timeIntervalSince1970: .infinity), issuedAt: Date(), provider: "acme")
        #expect(throws: AuthError.self) { try StoredRecords.encode(session, identity: Self.identity) }
        let user = User(id: "u", attributes: .object(["n": .number(.nan)]))
        let withUser = Session(accessToken: "at", issuedAt: Date(), user: user, provider: "acme")
        #expect(throws: AuthError.self) { try StoredRecords.encode(withUser, identity: Self.identity) }
    }
}
