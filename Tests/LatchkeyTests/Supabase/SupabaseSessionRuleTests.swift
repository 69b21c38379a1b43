import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// supabase-swift's session rules (`Sources/Auth/Internal/APIClient.swift`, `sessionCleanupErrorCodes`): a request
/// sent with the session's access token and refused because the server already ended the session removes the
/// local session, with the signed-out state; any other refusal keeps it.
@Suite("Supabase: a session the server ended is forgotten; other refusals keep it")
struct SupabaseSessionRuleTests {
    /// Signs Ada in and returns the client and the states it publishes from then on.
    private func signedIn(_ harness: SupabaseHarness, spec: ProviderSpec = SupabaseClient.provider) async throws
        -> (SupabaseClient, AsyncStream<AuthState>.AsyncIterator, Session)
    {
        harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse")
        let app = try harness.makeClient(redirectURIs: [:], spec: spec)
        let session = try await app.signIn(email: "ada@example.com", password: "correct-horse")
        var updates = app.client.stateUpdates().makeAsyncIterator()
        #expect(await updates.next()?.isSignedIn == true)
        return (app, updates, session)
    }

    @Test("403 session_not_found from GET /user (a sign-out elsewhere) forgets the session: signedOut, store empty")
    func sessionNotFoundFromUser() async throws {
        try await withSupabase { harness in
            var (app, updates, session) = try await signedIn(harness)
            let elsewhere = try harness.makeClient(store: InMemorySessionStore())
            _ = try await elsewhere.signIn(email: "ada@example.com", password: "correct-horse")
            try await elsewhere.signOut(scope: .global)
            harness.gotrue.resetRecording()

            let error = await caughtAuthError { _ = try await app.client.fetchUser() }

            expectGoTrueRequest(harness.gotrue.requests.first, "GET", "/user", bearer: session.accessToken)
            #expect(error?.code == .sessionExpired)
            #expect(error?.kind == .rejected)
            #expect(error?.status == 403)
            #expect(error?.providerCode == "session_not_found")
            #expect(error?.providerMessage == "Session from session_id claim in JWT does not exist")
            #expect(await updates.next() == .signedOut)
            #expect(app.client.state == .signedOut)
            #expect(try await harness.storeIsEmpty())
            // Nothing more is sent with the dead session.
            let missing = await caughtAuthError { _ = try await app.client.currentSession() }
            #expect(missing?.code == .sessionMissing)
            #expect(harness.gotrue.requests.count == 1)
        }
    }

    @Test("403 user_not_found from GET /user (the user was deleted) forgets the session")
    func userNotFoundFromUser() async throws {
        try await withSupabase { harness in
            var (app, updates, session) = try await signedIn(harness)
            harness.gotrue.failNext(
                "/user",
                .http(status: 403, code: "user_not_found", message: "User from sub claim in JWT does not exist"))
            harness.gotrue.resetRecording()

            let error = await caughtAuthError { _ = try await app.client.fetchUser() }

            expectGoTrueRequest(harness.gotrue.requests.first, "GET", "/user", bearer: session.accessToken)
            #expect(error?.providerCode == "user_not_found")
            #expect(error?.providerMessage == "User from sub claim in JWT does not exist")
            #expect(await updates.next() == .signedOut)
            #expect(try await harness.storeIsEmpty())
            #expect(harness.gotrue.requests.count == 1)
        }
    }

    /// Refusals that do not say the session is gone.
    static let keptRefusals: [(status: Int, code: String)] = [
        (403, "bad_jwt"), (400, "validation_failed"), (422, "user_sso_managed"), (429, "over_request_rate_limit"),
        (500, "unexpected_failure"),
    ]

    @Test("Any other refusal of GET /user keeps the session and the store", arguments: 0..<keptRefusals.count)
    func otherRefusalsKeepTheSession(index: Int) async throws {
        let refusal = Self.keptRefusals[index]
        try await withSupabase { harness in
            let (app, _, session) = try await signedIn(harness)
            let stored = try await harness.storedSession()
            harness.gotrue.failNext("/user", .http(status: refusal.status, code: refusal.code, message: "no"))

            let error = await caughtAuthError { _ = try await app.client.fetchUser() }

            #expect(error?.providerCode == refusal.code)
            #expect(app.client.state.isSignedIn)
            #expect(await app.client.cachedSession?.accessToken == session.accessToken)
            #expect((try await harness.storedSession()) as NSDictionary? == stored as NSDictionary?)
        }
    }

    @Test("Without errors.sessionEndedCodes in the descriptor, session_not_found keeps the session (the key decides)")
    func descriptorKeyDecides() async throws {
        var spec = SupabaseClient.provider
        #expect(spec.errors.sessionEndedCodes == ["session_not_found", "session_expired", "user_not_found"])
        spec.errors.sessionEndedCodes = []
        try await withSupabase { harness in
            let (app, _, _) = try await signedIn(harness, spec: spec)
            harness.gotrue.failNext(
                "/user",
                .http(
                    status: 403, code: "session_not_found",
                    message: "Session from session_id claim in JWT does not exist"))

            let error = await caughtAuthError { _ = try await app.client.fetchUser() }

            #expect(error?.providerCode == "session_not_found")
            #expect(app.client.state.isSignedIn)
            #expect(try await harness.storedSession() != nil)
        }
    }
}
