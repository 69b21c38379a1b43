import Foundation
import LatchkeyTokens
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

@Suite("Session: decoding, expiry and redaction")
struct SessionDecodingTests {
    private let decoder = SessionDecoder(
        provider: "acme", sessionMapping: SessionMapping(expiresAt: "/expires_at", user: "/user"),
        userMapping: UserMapping(id: "/id", scopes: "/scope"))
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("expires_in is relative to the local clock")
    func expiresIn() throws {
        let session = try decoder.session(
            from: .object(["access_token": .string("a"), "expires_in": .string("120")]), now: now, serverDate: nil)
        #expect(session.expiresAt == now.addingTimeInterval(120))
        #expect(session.tokenType == "bearer")
        #expect(!session.isExpired(at: now.addingTimeInterval(59), leeway: .seconds(60)))
        #expect(session.isExpired(at: now.addingTimeInterval(61), leeway: .seconds(60)))
    }

    @Test("expires_at is corrected by the skew between the Date header and the local clock")
    func expiresAtWithSkew() throws {
        let serverNow = now.addingTimeInterval(-1000)
        let document = JSON.object([
            "access_token": .string("a"), "expires_at": .number(serverNow.timeIntervalSince1970 + 3600),
        ])
        let skewed = try decoder.session(from: document, now: now, serverDate: serverNow)
        #expect(skewed.expiresAt == now.addingTimeInterval(3600))
        let trusting = try decoder.session(from: document, now: now, serverDate: nil)
        #expect(trusting.expiresAt == now.addingTimeInterval(2600))
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test("a missing or empty access token is invalid_response; the embedded user is mapped")
    func accessTokenRequired() throws {
        for document in [JSON.object([:]), .object(["access_token": .string("")]), .array([]), .null] {
            #expect(throws: AuthError.self) { try decoder.session(from: document, now: now, serverDate: nil) }
        }
        let session = try decoder.session(
            from: .object([
                "access_token": .string("a"),
                "user": .object(["id": .number(7), "scope": .string("read write")]),
            ]), now: now, serverDate: nil)
        #expect(session.user?.id == "7")
        #expect(session.user?.scopes == ["read", "write"])
        #expect(session.expiresAt == nil)
        #expect(!session.isExpired(at: .distantFuture))
    }

    @Test("description, debugDescription and dump never show a token")
    func redaction() throws {
        let access = "eyJhbGciOiJIUzI1NiJ9." + Base64URL.encode(Array(#"{"sub":"u-42"}"#.utf8)) + ".signature-part"
        let session = Session(
            accessToken: access, refreshToken: "refresh-secret-value", idToken: "id-secret-value",
            expiresAt: now, issuedAt: now, provider: "acme")
        var dumped = ""
        dump(session, to: &dumped)
        for text in [session.description, session.debugDescription, "\(session)", String(reflecting: session), dumped] {
            #expect(!text.contains(access))
            #expect(!text.contains("refresh-secret-value"))
            #expect(!text.contains("id-secret-value"))
        }
        #expect(session.description.contains("<redacted \(access.count) chars>"))
        #expect(session.description.contains("user: u-42"))
        #expect(session.userOrPlaceholder.id == "u-42")
        let error = AuthError(.invalidGrant, "The provider refused the request (HTTP 400): bad", provider: "acme")
        #expect(!error.description.contains(access))
        #expect(AuthState.signedIn(session.userOrPlaceholder).description == "signedIn(u-42)")
    }
}
