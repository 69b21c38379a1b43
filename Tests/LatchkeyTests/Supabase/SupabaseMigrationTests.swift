import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// A session as supabase-swift stores it, in each format its versions wrote, built from a real session of the
/// test server.
///
/// supabase-swift (`supabase/supabase-swift` @ 52eec30c, `Sources/Auth/Internal/SessionStorage.swift`) stores
/// `JSONEncoder().encode(session)`. `Session` and `User` (`Sources/Auth/Types.swift`) have synthesized coding keys,
/// so the members are the property names (`accessToken`, `tokenType`, `expiresIn`, `expiresAt`, `refreshToken`,
/// `user`; `appMetadata`, `userMetadata`, `createdAt`, `isAnonymous`, …), `expiresAt` is a Unix time
/// (`TimeInterval`) and `User`'s `Date`s use `JSONEncoder`'s default: seconds since 1 January 2001. Older versions
/// stored the session with `AuthClient.Configuration.jsonEncoder` (`Sources/Auth/Defaults.swift`: snake_case keys,
/// ISO 8601 dates), some wrapped as `{"session": …, "expiration_date": …}` (`StorageMigration.storeSessionDirectly`).
enum SupabaseSwiftStoredFormat: String, CaseIterable, Sendable {
    case current, snakeCase, wrapped

    /// The stored bytes for a session.
    func data(accessToken: String, refreshToken: String, expiresAt: Date, userID: String, email: String) throws
        -> Data
    {
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        let session: [String: Any]
        switch self {
        case .current:
            session = [
                "accessToken": accessToken, "tokenType": "bearer", "expiresIn": 3600,
                "expiresAt": expiresAt.timeIntervalSince1970, "refreshToken": refreshToken,
                "user": [
                    "id": userID.uppercased(),  // Foundation's UUID encodes upper case.
                    "appMetadata": ["provider": "email", "providers": ["email"]],
                    "userMetadata": ["full_name": "Ada Lovelace"], "aud": "authenticated", "email": email,
                    "phone": "", "createdAt": created.timeIntervalSinceReferenceDate,
                    "emailConfirmedAt": created.timeIntervalSinceReferenceDate,
                    "updatedAt": created.timeIntervalSinceReferenceDate, "role": "authenticated",
                    "isAnonymous": false,
                    "identities": [
                        [
                            "id": userID, "identityId": userID, "userId": userID, "provider": "email",
                            "identityData": ["sub": userID], "createdAt": created.timeIntervalSinceReferenceDate,
                        ]
                    ],
                ],
            ]
        case .snakeCase, .wrapped:
            session = [
                "access_token": accessToken, "token_type": "bearer", "expires_in": 3600,
                "expires_at": expiresAt.timeIntervalSince1970, "refresh_token": refreshToken,
                "user": [
                    "id": userID.uppercased(), "app_metadata": ["provider": "email"],
                    "user_metadata": ["full_name": "Ada Lovelace"], "aud": "authenticated", "email": email,
                    "created_at": "2023-11-14T22:13:20.000Z", "updated_at": "2023-11-14T22:13:20.000Z",
                    "role": "authenticated",
                ],
            ]
        }
        let stored: [String: Any] =
            self == .wrapped ? ["session": session, "expiration_date": "2023-11-14T23:13:20.000Z"] : session
        return try JSONSerialization.data(withJSONObject: stored, options: [.sortedKeys])
    }
}

@Suite("Supabase: an app that switched from supabase-swift keeps its users signed in")
struct SupabaseMigrationTests {
    /// A real session of the test server, made without touching the harness's store.
    private func serverSession(_ harness: SupabaseHarness) async throws -> Session {
        harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse")
        let other = try harness.makeClient(store: InMemorySessionStore())
        let session = try await other.signIn(email: "ada@example.com", password: "correct-horse")
        harness.gotrue.resetRecording()
        return session
    }

    private func client(_ harness: SupabaseHarness, importing file: URL) throws -> SupabaseClient {
        var options = harness.options(store: harness.store)
        options.sessionImport = .supabaseSwift(file: file)
        return try SupabaseClient(
            projectURL: harness.gotrue.projectURL, publishableKey: GoTrueServer.publishableKey,
            redirectURI: SupabaseAppURLs.callback, options: options)
    }

    private func exportFile(_ harness: SupabaseHarness) throws -> URL {
        try FileManager.default.createDirectory(at: harness.directory, withIntermediateDirectories: true)
        return harness.directory.appendingPathComponent("supabase-swift-session.json")
    }

    @Test(
        "A session supabase-swift stored is adopted on the first restore with zero requests, stored bound, its file removed",
        arguments: SupabaseSwiftStoredFormat.allCases)
    func adoptsWithZeroRequests(format: SupabaseSwiftStoredFormat) async throws {
        try await withSupabase { harness in
            let server = try await serverSession(harness)
            let file = try exportFile(harness)
            try format.data(
                accessToken: server.accessToken, refreshToken: server.refreshToken!, expiresAt: server.expiresAt!,
                userID: server.user!.id, email: "ada@example.com"
            ).write(to: file)
            let app = try client(harness, importing: file)

            let state = await app.client.restore()

            #expect(state.isSignedIn)
            #expect(harness.gotrue.requests.isEmpty, "a still-valid session is adopted with no request")
            let adopted = try #require(await app.client.cachedSession)
            #expect(adopted.accessToken == server.accessToken)
            #expect(adopted.refreshToken == server.refreshToken)
            #expect(adopted.expiresAt == Date(timeIntervalSince1970: server.expiresAt!.timeIntervalSince1970))
            #expect(adopted.user?.email == "ada@example.com")
            #expect(adopted.user?.name == "Ada Lovelace")
            #expect(try await harness.storedSession()?["refreshToken"] as? String == server.refreshToken)
            #expect(!FileManager.default.fileExists(atPath: file.path), "removed once stored the Latchkey way")

            // The tokens are the server's: the next call carries them.
            _ = try await app.client.fetchUser()
            expectGoTrueRequest(harness.gotrue.requests.last, "GET", "/user", bearer: server.accessToken)
            // A relaunch reads Latchkey's own record.
            let relaunched = try harness.makeClient()
            #expect(await relaunched.client.restore().isSignedIn)
            #expect(await relaunched.client.cachedSession?.refreshToken == server.refreshToken)
        }
    }

    @Test("An expired adopted session is refreshed with its refresh token on first use")
    func expiredAdoptionRefreshes() async throws {
        try await withSupabase { harness in
            let server = try await serverSession(harness)
            let file = try exportFile(harness)
            try SupabaseSwiftStoredFormat.current.data(
                accessToken: server.accessToken, refreshToken: server.refreshToken!,
                expiresAt: Date().addingTimeInterval(-120), userID: server.user!.id, email: "ada@example.com"
            ).write(to: file)
            let app = try client(harness, importing: file)
            #expect(await app.client.restore().isSignedIn)
            #expect(harness.gotrue.requests.isEmpty)

            let fresh = try await app.client.currentSession()

            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/token", query: ["grant_type": "refresh_token"],
                body: ["refresh_token": server.refreshToken!])
            #expect(fresh.refreshToken != server.refreshToken)
        }
    }

    /// Sessions that are not this project's: another project's issuer, or a token for another user.
    static let foreignClaims: [String] = ["another project", "another user"]

    @Test(
        "A session of another project (or whose token names another user) is refused: signed out, zero requests, file kept",
        arguments: foreignClaims)
    func refusesForeignSessions(kind: String) async throws {
        try await withSupabase { harness in
            let server = try await serverSession(harness)
            var claims = try #require(GoTrueServer.claims(of: server.accessToken))
            if kind == "another project" {
                claims["iss"] = "https://abcdefghijklmnop.supabase.co/auth/v1"
            } else {
                claims["sub"] = "5b8d1f0e-0000-4000-8000-000000000000"
            }
            let file = try exportFile(harness)
            try SupabaseSwiftStoredFormat.current.data(
                accessToken: GoTrueServer.jwt(claims), refreshToken: server.refreshToken!,
                expiresAt: server.expiresAt!, userID: server.user!.id, email: "ada@example.com"
            ).write(to: file)
            let app = try client(harness, importing: file)

            #expect(await app.client.restore() == .signedOut)
            #expect(harness.gotrue.requests.isEmpty)
            #expect(try await harness.storeIsEmpty())
            #expect(FileManager.default.fileExists(atPath: file.path), "another project's item is left alone")
        }
    }

    @Test("With a Latchkey session stored, supabase-swift's is not read and stays where it is")
    func ownSessionWins() async throws {
        try await withSupabase { harness in
            let server = try await serverSession(harness)
            let own = try harness.makeClient()
            let mine = try await own.signIn(email: "ada@example.com", password: "correct-horse")
            let file = try exportFile(harness)
            try SupabaseSwiftStoredFormat.current.data(
                accessToken: server.accessToken, refreshToken: server.refreshToken!, expiresAt: server.expiresAt!,
                userID: server.user!.id, email: "ada@example.com"
            ).write(to: file)
            harness.gotrue.resetRecording()
            let app = try client(harness, importing: file)

            #expect(await app.client.restore().isSignedIn)
            #expect(await app.client.cachedSession?.accessToken == mine.accessToken)
            #expect(harness.gotrue.requests.isEmpty)
            #expect(FileManager.default.fileExists(atPath: file.path))
        }
    }
}
