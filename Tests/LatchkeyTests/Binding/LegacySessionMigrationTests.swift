import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

/// Upgrading from unbound (version 1) records: a record that provably belongs to the client keeps its user
/// signed in; any other is not restored and nothing of it is sent (issue 15, item 1).
@Suite("Migration of version 1 session records")
struct LegacySessionMigrationTests {
    /// The envelope an earlier version wrote: `{"version":1,"session":…}` under the descriptor name.
    private struct LegacyEnvelope: Encodable {
        let version = 1
        let session: Session
    }

    private static func legacyRecord(_ session: Session) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return try encoder.encode(LegacyEnvelope(session: session))
    }

    /// Signs in with a client of `provider`, then rewrites the store as an earlier version left it: the session
    /// in a version 1 record under `oidc`, and nothing else.
    private static func seedLegacy(_ provider: ProviderSimulator, store: InMemorySessionStore) async throws -> Session {
        let scratch = InMemorySessionStore()
        let client = try OidcClient(
            issuer: provider.issuer, clientID: "app-a", options: AuthClientOptions(store: scratch))
        let session = try await client.signInWithLoopback(open: headlessOpener(), timeout: .seconds(60))
        try await store.save(legacyRecord(session), key: "oidc")
        return session
    }

    @Test("a version 1 record whose ID token names this issuer and client id: migrated, still signed in")
    func ownRecordIsMigrated() async throws {
        try await withSimulator(OidcClient.provider) { provider in
            let store = InMemorySessionStore()
            let session = try await Self.seedLegacy(provider, store: store)
            let before = provider.requests.count
            let client = try OidcClient(
                issuer: provider.issuer, clientID: "app-a", options: AuthClientOptions(store: store))
            #expect(await client.restore() == .signedIn(session.userOrPlaceholder))
            #expect(await client.client.cachedSession?.refreshToken == session.refreshToken)
            // Restoring fetches only the provider's keys, to verify the ID token; no token is sent.
            let restoring = Array(provider.requests.dropFirst(before))
            #expect(restoring.allSatisfy { $0.method == "GET" && $0.path != "/userinfo" }, "\(restoring.map(\.path))")
            expectNoToken(of: session, in: restoring)
            // Rewritten as this client's bound record; the unbound one is gone.
            // The discovery document fetched to find the keys is cached under the client's key too.
            #expect(store.keys.filter { !$0.contains(".discovery.") } == [client.client.storeKey])
            let record = try #require(try await store.load(key: client.client.storeKey))
            let envelope = try #require(try JSONSerialization.jsonObject(with: record) as? [String: Any])
            #expect(envelope["version"] as? Int == 2)
            #expect(envelope["provider"] as? String == "oidc")
            #expect(envelope["binding"] as? String == client.client.identity.digest)
            // The refresh token still works with its own provider.
            let refreshed = try await client.currentSession(forceRefresh: true)
            #expect(refreshed.accessToken != session.accessToken)
            let refresh = try #require(provider.requests.last { $0.path == "/token" })
            #expect(refresh.formBody["refresh_token"] == session.refreshToken)
            #expect(refresh.formBody["client_id"] == "app-a")
        }
    }

    @Test("a version 1 record of another issuer: not restored, left alone, nothing sent to this provider")
    func otherIssuersRecordIsIgnored() async throws {
        try await withSimulator(OidcClient.provider) { first in
            try await withSimulator(OidcClient.provider) { second in
                let store = InMemorySessionStore()
                let session = try await Self.seedLegacy(first, store: store)
                let stranger = try OidcClient(
                    issuer: second.issuer, clientID: "app-a", options: AuthClientOptions(store: store))
                #expect(await stranger.restore() == .signedOut)
                await expectCode(.sessionMissing) { _ = try await stranger.currentSession(forceRefresh: true) }
                await expectCode(.sessionMissing) { _ = try await stranger.fetchUser() }
                #expect(second.requests.isEmpty, "the other provider got \(second.requests.map(\.path))")
                expectNoToken(of: session, in: second.requests)
                #expect(store.keys == ["oidc"], "the record is left for the client it belongs to")
            }
        }
    }

    @Test("a version 1 record of another client id at the same issuer: not restored, nothing sent")
    func otherClientsRecordIsIgnored() async throws {
        try await withSimulator(OidcClient.provider) { provider in
            let store = InMemorySessionStore()
            let session = try await Self.seedLegacy(provider, store: store)
            let before = provider.requests.count
            let other = try OidcClient(
                issuer: provider.issuer, clientID: "app-other", options: AuthClientOptions(store: store))
            #expect(await other.restore() == .signedOut)
            await expectCode(.sessionMissing) { _ = try await other.validAccessToken() }
            #expect(provider.requests.count == before)
            expectNoToken(of: session, in: Array(provider.requests.dropFirst(before)))
            #expect(store.keys == ["oidc"])
        }
    }

    @Test("a version 1 record whose tokens prove nothing (opaque, no ID token): not restored, nothing sent")
    func unprovableRecordIsIgnored() async throws {
        try await withSimulator(OidcClient.provider) { provider in
            let store = InMemorySessionStore()
            let opaque = Session(
                accessToken: "opaque-access-token-1", refreshToken: "opaque-refresh-token-1",
                expiresAt: Date().addingTimeInterval(-60), issuedAt: Date().addingTimeInterval(-3660), provider: "oidc")
            try await store.save(Self.legacyRecord(opaque), key: "oidc")
            let client = try OidcClient(
                issuer: provider.issuer, clientID: "app-a", options: AuthClientOptions(store: store))
            #expect(await client.restore() == .signedOut)
            await expectCode(.sessionMissing) { _ = try await client.validAccessToken() }
            #expect(provider.requests.isEmpty)
        }
    }

    @Test("a version 1 record whose ID token is alg none (right iss, aud, sub): not restored, nothing sent")
    func unsignedIDTokenIsNotMigrated() async throws {
        try await withSimulator(OidcClient.provider) { provider in
            let store = InMemorySessionStore()
            let genuine = try await Self.seedLegacy(provider, store: store)
            var forged = genuine
            forged.idToken = try Self.unsigned(copying: #require(genuine.idToken))
            forged.accessToken = "forged-access-token-1"
            forged.refreshToken = "forged-refresh-token-1"
            forged.user = User(id: "mallory")
            try await store.save(Self.legacyRecord(forged), key: "oidc")
            let before = provider.requests.count
            let client = try OidcClient(
                issuer: provider.issuer, clientID: "app-a", options: AuthClientOptions(store: store))
            #expect(await client.restore() == .signedOut)
            await expectCode(.sessionMissing) { _ = try await client.validAccessToken() }
            await expectCode(.sessionMissing) { _ = try await client.fetchUser() }
            #expect(await client.client.cachedSession == nil)
            expectNoToken(of: forged, in: Array(provider.requests.dropFirst(before)))
            #expect(
                store.keys.filter { !$0.contains(".discovery.") } == ["oidc"],
                "the unproven record is left alone, not migrated")
        }
    }

    @Test("a version 1 record whose ID token is RS256 with the provider's kid but signed by another key: not migrated")
    func foreignKeyIDTokenIsNotMigrated() async throws {
        try await withSimulator(OidcClient.provider) { provider in
            let store = InMemorySessionStore()
            let genuine = try await Self.seedLegacy(provider, store: store)
            var forged = genuine
            forged.idToken = try Self.resigned(copying: #require(genuine.idToken), with: TestSigner(.rsa()))
            forged.accessToken = "forged-access-token-2"
            try await store.save(Self.legacyRecord(forged), key: "oidc")
            let before = provider.requests.count
            let client = try OidcClient(
                issuer: provider.issuer, clientID: "app-a", options: AuthClientOptions(store: store))
            #expect(await client.restore() == .signedOut)
            await expectCode(.sessionMissing) { _ = try await client.validAccessToken() }
            expectNoToken(of: forged, in: Array(provider.requests.dropFirst(before)))
            #expect(store.keys.filter { !$0.contains(".discovery.") } == ["oidc"])
        }
    }

    /// The same header and claims as `token`, signed with RS256 by `signer` (a key the provider never published).
    private static func resigned(copying token: String, with signer: TestSigner) throws -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        let input = parts[0] + "." + parts[1]
        let signature = try signer.sign(Array(input.utf8), algorithm: .rs256)
        return input + "." + Base64URL.encode(Data(signature))
    }

    /// The same claims as `token`, with the header `{"alg":"none"}` and no signature.
    private static func unsigned(copying token: String) throws -> String {
        let payload = try #require(token.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first)
        let header = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        return "\(header).\(payload)."
    }

    @Test("Supabase: a version 1 record proven only by an access token Latchkey cannot verify is not migrated")
    func supabaseRecordIsNotMigrated() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse")
            let signedIn = try harness.makeClient()
            let session = try await signedIn.signIn(email: "ada@example.com", password: "correct-horse")
            try await harness.store.remove(key: signedIn.client.storeKey)
            try await harness.store.save(Self.legacyRecord(session), key: "supabase")
            let before = harness.gotrue.requests.count

            // Its access token names the project as iss, but its HS256 signature is the project's secret's:
            // anyone could have written those claims, so the user signs in once more.
            let relaunched = try harness.makeClient()
            #expect(await relaunched.client.restore() == .signedOut)
            await expectCode(.sessionMissing) { _ = try await relaunched.client.fetchUser() }
            #expect(harness.gotrue.requests.count == before)
            #expect(try await harness.store.load(key: "supabase") != nil)
        }
    }
}
