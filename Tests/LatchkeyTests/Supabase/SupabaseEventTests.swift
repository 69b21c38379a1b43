import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// supabase-swift's `userUpdated` and `userDeleted` events, `verifyOTP`'s `{"msg": …}` answer to a secure email
/// change, and `AuthClient.Configuration(headers:)`, on the wire.
@Suite("Supabase: user events, secure email change, custom headers", timeLimit(minutes: 2))
struct SupabaseEventTests {
    static let email = "ada@example.com"
    static let password = "correct horse battery"

    static func signedIn(_ harness: SupabaseHarness) async throws -> (SupabaseClient, Session) {
        try await harness.signedIn(email: email, password: password)
    }

    @Test(
        "updateUser and linkIdentityWithIdToken publish user_updated once they succeed; a refused update publishes nothing"
    )
    func userUpdated() async throws {
        try await withSupabase { harness in
            let (supabase, _) = try await Self.signedIn(harness)
            let events = supabase.client.events()

            _ = try await supabase.updateUser(data: ["plan": .string("pro")])
            #expect(await nextEvent(events) == .userUpdated)

            let refused = await caughtAuthError { _ = try await supabase.updatePassword(password: Self.password) }
            #expect(refused?.providerCode == "same_password")
            let idToken = GoTrueServer.idToken(provider: "google", sub: "42", email: "ada@gmail.com", nonce: nil)
            _ = try await supabase.linkIdentityWithIdToken(provider: .google, idToken: idToken)
            #expect(await nextEvent(events) == .userUpdated, "the next event is the link's: the refusal published none")
        }
    }

    @Test(
        "403 user_not_found from GET /user forgets the session and publishes user_deleted; session_not_found does not")
    func userDeleted() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await Self.signedIn(harness)
            let events = supabase.client.events()
            harness.gotrue.failNext(
                "/user",
                .http(status: 403, code: "user_not_found", message: "User from sub claim in JWT does not exist"))

            let error = await caughtAuthError { _ = try await supabase.client.fetchUser() }

            expectGoTrueRequest(harness.gotrue.requests.last, "GET", "/user", bearer: session.accessToken)
            #expect(error?.providerCode == "user_not_found")
            #expect(supabase.client.state == .signedOut)
            #expect(await nextEvent(events) == .userDeleted)

            let (other, _) = try await Self.signedInAgain(harness)
            let otherEvents = other.client.events()
            harness.gotrue.failNext(
                "/user", .http(status: 403, code: "session_not_found", message: "Session does not exist"))
            _ = await caughtAuthError { _ = try await other.client.fetchUser() }
            #expect(other.client.state == .signedOut)
            #expect(
                await nextEvent(otherEvents, within: .milliseconds(200)) == nil, "a session ended is no deleted user")
        }
    }

    static func signedInAgain(_ harness: SupabaseHarness) async throws -> (SupabaseClient, Session) {
        let supabase = try harness.makeClient()
        let session = try await supabase.signIn(email: email, password: password)
        harness.gotrue.resetRecording()
        return (supabase, session)
    }

    @Test(
        "verifyOTP(type: .emailChange): the first of a secure email change's two codes answers {\"msg\"} as a document and keeps the session; the second signs in"
    )
    func secureEmailChange() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await Self.signedIn(harness)
            harness.gotrue.startSecureEmailChange(email: Self.email, to: "ada@new.example")
            let codes = harness.gotrue.outbox.filter { $0.type == "email_change" }
            #expect(codes.count == 2)

            let first = try await supabase.verifyOTP(type: .emailChange, email: Self.email, token: codes[0].token)

            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/verify",
                body: ["type": "email_change", "email": Self.email, "token": codes[0].token])
            guard case .document(let answer) = first else {
                Issue.record("expected a document, got \(first)")
                return
            }
            #expect(answer.value(at: "/msg")?.string?.hasPrefix("Confirmation link accepted") == true)
            #expect(await supabase.cachedSession?.accessToken == session.accessToken, "the session is unchanged")
            #expect(try await harness.storedSession()?["accessToken"] as? String == session.accessToken)

            let second = try await supabase.verifyOTP(
                type: .emailChange, email: "ada@new.example", token: codes[1].token)
            guard case .session(let changed) = second else {
                Issue.record("expected a session, got \(second)")
                return
            }
            #expect(changed.user?.email == "ada@new.example")
        }
    }

    @Test("options.additionalHeaders go with every request; apikey, Authorization and the like cannot be replaced")
    func customHeaders() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            var options = harness.options(store: harness.store)
            options.additionalHeaders = ["X-Client-Info": "latchkey-tests/1.0", "X-Region": "eu"]
            let supabase = try SupabaseClient(
                projectURL: harness.gotrue.projectURL, publishableKey: GoTrueServer.publishableKey,
                redirectURI: SupabaseAppURLs.callback, options: options)

            let session = try await supabase.signIn(email: Self.email, password: Self.password)
            _ = try await supabase.client.fetchUser()
            _ = try await supabase.userIdentities()
            try await supabase.signOut(scope: .local)

            #expect(harness.gotrue.requests.count == 4)
            for request in harness.gotrue.requests {
                #expect(request.headerValues("X-Client-Info") == ["latchkey-tests/1.0"])
                #expect(request.headerValues("X-Region") == ["eu"])
                #expect(request.headerValues("apikey") == [GoTrueServer.publishableKey])
            }
            expectGoTrueRequest(harness.gotrue.requests[1], "GET", "/user", bearer: session.accessToken)

            harness.gotrue.resetRecording()
            for (name, value) in [
                ("apikey", "sb_publishable_other"), ("APIKEY", "x"), ("Authorization", "Bearer x"),
                ("x-supabase-api-version", "2020-01-01"), ("Content-Type", "text/plain"), ("Bad Name", "x"),
                ("X-Ok", "a\r\nInjected: 1"),
            ] {
                var refused = harness.options(store: InMemorySessionStore())
                refused.additionalHeaders = [name: value]
                do {
                    _ = try SupabaseClient(
                        projectURL: harness.gotrue.projectURL, publishableKey: GoTrueServer.publishableKey,
                        redirectURI: SupabaseAppURLs.callback, options: refused)
                    Issue.record("the header \(name) was accepted")
                } catch let error as AuthError {
                    #expect(error.code == .invalidConfiguration)
                    #expect(error.message.contains("'\(name)'") || name == "Bad Name", "\(error.message)")
                    #expect(!error.message.contains(value) || value == "x", "the value is never quoted")
                } catch {
                    Issue.record("expected an AuthError, got \(error)")
                }
            }
            #expect(harness.gotrue.requests.isEmpty)
        }
    }
    @Test(
        "authStateChanges(): initial_session, signed_in, user_updated, token_refreshed, signed_out, each with the session after it, in order"
    )
    func eventAndSession() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            let supabase = try harness.makeClient()
            #expect(await supabase.client.restore() == .signedOut)
            var changes = supabase.client.authStateChanges().makeAsyncIterator()
            #expect(await changes.next() == AuthStateChange(event: .initialSession, session: nil))

            let session = try await supabase.signIn(email: Self.email, password: Self.password)
            #expect(await changes.next() == AuthStateChange(event: .signedIn, session: session))

            _ = try await supabase.updateUser(data: ["plan": .string("pro")])
            let updated = await changes.next()
            #expect(updated?.event == .userUpdated)
            #expect(updated?.session?.accessToken == session.accessToken)
            #expect(updated?.session?.user?.id == session.user?.id)

            let refreshed = try await supabase.client.currentSession(forceRefresh: true)
            #expect(await changes.next() == AuthStateChange(event: .tokenRefreshed, session: refreshed))

            try await supabase.signOut(scope: .local)
            #expect(await changes.next() == AuthStateChange(event: .signedOut, session: nil))

            var late = supabase.client.authStateChanges().makeAsyncIterator()
            #expect(await late.next() == AuthStateChange(event: .initialSession, session: nil))
        }
    }
}
