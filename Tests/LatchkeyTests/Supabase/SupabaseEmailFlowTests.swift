import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Supabase: email and password, sessions, sign-up and confirmation")
struct SupabaseEmailFlowTests {
    static let email = "ada@example.com"
    static let password = "correct-horse"

    @Test("Sign in with email and password, then sign out with a scope", arguments: [nil, "global", "local", "others"])
    func signInAndSignOut(scope: String?) async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            let supabase = try harness.makeClient()
            let session = try await supabase.signIn(email: Self.email, password: Self.password)

            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/token", query: ["grant_type": "password"],
                body: ["email": Self.email, "password": Self.password])
            #expect(session.tokenType == "bearer")
            #expect(session.refreshToken?.count == 12)
            #expect(session.user?.email == Self.email)
            #expect(supabase.client.state == .signedIn(session.user!))
            #expect(try await harness.storedSession()?["accessToken"] as? String == session.accessToken)

            // The same user on another device.
            let other = try harness.makeClient(store: InMemorySessionStore())
            _ = try await other.signIn(email: Self.email, password: Self.password)
            #expect(harness.gotrue.liveSessions == 2)
            harness.gotrue.resetRecording()

            try await supabase.client.signOut(scope: scope)

            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/logout", query: ["scope": scope ?? "global"],
                bearer: session.accessToken)
            if scope == "others" {
                // Only the other device's session ends; this one stays signed in and stored.
                #expect(supabase.client.state == .signedIn(session.user!))
                #expect(await supabase.client.cachedSession?.accessToken == session.accessToken)
                #expect(try await !harness.storeIsEmpty())
                _ = try await supabase.client.fetchUser()
            } else {
                #expect(supabase.client.state == .signedOut)
                #expect(await supabase.client.cachedSession == nil)
                #expect(try await harness.storeIsEmpty())
            }
            switch scope {
            case "local": #expect(harness.gotrue.liveSessions == 1)
            case "others": #expect(harness.gotrue.liveSessions == 1)
            default: #expect(harness.gotrue.liveSessions == 0)
            }
            let otherAlive = scope == "local"
            if otherAlive {
                _ = try await other.client.fetchUser()
            } else {
                let error = await caughtAuthError { _ = try await other.client.fetchUser() }
                #expect(error?.code == .sessionExpired)
                #expect(error?.kind == .rejected)
                #expect(error?.providerCode == "session_not_found")
            }
        }
    }

    @Test("A forced refresh rotates the tokens; the next requests carry the new access token")
    func refreshThenUseNewToken() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            let supabase = try harness.makeClient()
            let first = try await supabase.signIn(email: Self.email, password: Self.password)
            harness.gotrue.resetRecording()

            let second = try await supabase.client.currentSession(forceRefresh: true)

            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/token", query: ["grant_type": "refresh_token"],
                body: ["refresh_token": first.refreshToken!])
            #expect(second.accessToken != first.accessToken)
            #expect(second.refreshToken != first.refreshToken)
            #expect(!harness.gotrue.isUsable(refreshToken: first.refreshToken!))
            #expect(harness.gotrue.isUsable(refreshToken: second.refreshToken!))
            let stored = try await harness.storedSession()
            #expect(stored?["accessToken"] as? String == second.accessToken)
            #expect(stored?["refreshToken"] as? String == second.refreshToken)

            let user = try await supabase.client.fetchUser()
            #expect(user.email == Self.email)
            expectGoTrueRequest(harness.gotrue.requests.last, "GET", "/user", bearer: second.accessToken)

            try await supabase.client.signOut(scope: "local")
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/logout", query: ["scope": "local"], bearer: second.accessToken)
            #expect(harness.gotrue.requests.count == 3)
            #expect(supabase.client.state == .signedOut)
            #expect(try await harness.storeIsEmpty())
            #expect(harness.gotrue.liveSessions == 0)
        }
    }

    @Test("A relaunched app restores the session from the file store with zero requests")
    func restoreAfterRelaunch() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            let first = try harness.makeClient()
            let session = try await first.signIn(email: Self.email, password: Self.password)
            let before = harness.gotrue.requests.count

            let relaunched = try harness.makeClient()
            #expect(relaunched.client.state == .loading)
            let state = await relaunched.client.restore()

            #expect(state.user?.id == session.user?.id)
            #expect(state.user?.email == Self.email)
            #expect(relaunched.client.state.isSignedIn)
            let restored = await relaunched.client.cachedSession
            #expect(restored?.accessToken == session.accessToken)
            #expect(restored?.refreshToken == session.refreshToken)
            #expect(try await relaunched.client.validAccessToken() == session.accessToken)
            #expect(harness.gotrue.requests.count == before, "restoring must not touch the network")
        }
    }

    @Test("Restoring with nothing stored is signedOut, with zero requests")
    func restoreNothing() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            #expect(await supabase.client.restore() == .signedOut)
            #expect(harness.gotrue.requests.isEmpty)
        }
    }

    @Test("Sign-up with autoconfirm returns a session")
    func signUpWithSession() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let result = try await supabase.signUp(
                email: "grace@example.com", password: "hopper-1906", redirectTo: SupabaseAppURLs.callback)

            let challenge = (harness.gotrue.requests.first?.jsonBody as? [String: Any])?["code_challenge"] as? String
            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/signup",
                query: ["redirect_to": SupabaseAppURLs.callback.absoluteString],
                body: [
                    "email": "grace@example.com", "password": "hopper-1906", "code_challenge": challenge ?? "",
                    "code_challenge_method": "s256",
                ])
            guard case .session(let session) = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(session.user?.email == "grace@example.com")
            #expect(supabase.client.state.isSignedIn)
            #expect(try await harness.storedSession() != nil)

            let again = await caughtAuthError {
                _ = try await supabase.signUp(email: "grace@example.com", password: "hopper-1906")
            }
            #expect(again?.code == "user_already_exists")
            #expect(again?.kind == .invalidInput)
            #expect(again?.status == 422)
        }
    }

    @Test("Sign-up awaiting confirmation returns a user and no session; resend and verify OTP confirm it")
    func signUpAwaitingConfirmation() async throws {
        try await withSupabase(autoconfirm: false) { harness in
            let supabase = try harness.makeClient()
            let result = try await supabase.signUp(email: "grace@example.com", password: "hopper-1906")

            // The confirmation link returns to the app (the configured redirect URI), so a challenge is sent.
            let challenge = (harness.gotrue.requests.first?.jsonBody as? [String: Any])?["code_challenge"] as? String
            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/signup",
                query: ["redirect_to": SupabaseAppURLs.callback.absoluteString],
                body: [
                    "email": "grace@example.com", "password": "hopper-1906", "code_challenge": challenge ?? "",
                    "code_challenge_method": "s256",
                ])
            guard case .user(let user) = result else {
                Issue.record("expected a user, got \(result)")
                return
            }
            #expect(user.email == "grace@example.com")
            #expect(user.attributes.object?["confirmation_sent_at"]?.string != nil)
            #expect(await supabase.client.cachedSession == nil)
            #expect(await supabase.client.restore() == .signedOut)
            #expect(try await harness.storedSession() == nil)
            #expect(try await harness.storedPending()?.count == 1, "the link's verifier waits in the store")
            #expect(harness.gotrue.outbox.count == 1)

            let unconfirmed = await caughtAuthError {
                _ = try await supabase.signIn(email: "grace@example.com", password: "hopper-1906")
            }
            #expect(unconfirmed?.code == "email_not_confirmed")
            #expect(unconfirmed?.kind == .rejected)

            let resent = try await supabase.resendConfirmation(email: "grace@example.com", type: .signup)
            #expect(resent == .none)
            let resendChallenge =
                (harness.gotrue.requests.last?.jsonBody as? [String: Any])?["code_challenge"] as? String
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/resend",
                query: ["redirect_to": SupabaseAppURLs.callback.absoluteString],
                body: [
                    "type": "signup", "email": "grace@example.com", "code_challenge": resendChallenge ?? "",
                    "code_challenge_method": "s256",
                ])
            let mail = try #require(harness.gotrue.outbox.last)
            #expect(harness.gotrue.outbox.count == 2)

            let wrongCode = mail.token == "123456" ? "654321" : "123456"
            let wrong = await caughtAuthError {
                _ = try await supabase.verifyOTP(type: .email, email: "grace@example.com", token: wrongCode)
            }
            #expect(wrong?.code == "otp_expired")
            #expect(wrong?.kind == .rejected)
            #expect(wrong?.status == 403)
            #expect(supabase.client.state == .signedOut)

            let verified = try await supabase.verifyOTP(type: .email, email: "grace@example.com", token: mail.token)
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/verify",
                body: ["type": "email", "email": "grace@example.com", "token": mail.token])
            guard case .session(let session) = verified else {
                Issue.record("expected a session, got \(verified)")
                return
            }
            #expect(session.user?.email == "grace@example.com")
            #expect(session.user?.attributes.object?["email_confirmed_at"]?.string != nil)
            #expect(supabase.client.state.isSignedIn)
            #expect(try await harness.storedSession() != nil)
        }
    }

    @Test("An email link's token hash verifies with {type, token_hash}")
    func verifyTokenHash() async throws {
        try await withSupabase(autoconfirm: false) { harness in
            let supabase = try harness.makeClient()
            _ = try await supabase.signUp(email: "grace@example.com", password: "hopper-1906")
            let mail = try #require(harness.gotrue.outbox.last)

            let result = try await supabase.verifyOTP(type: .signup, tokenHash: mail.tokenHash)

            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/verify", body: ["type": "signup", "token_hash": mail.tokenHash])
            guard case .session = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(supabase.client.state.isSignedIn)

            let replay = await caughtAuthError {
                _ = try await supabase.verifyOTP(type: .signup, tokenHash: mail.tokenHash)
            }
            #expect(replay?.code == "otp_expired")
        }
    }

    @Test("Arguments that break the action's rules fail before any request")
    func clientSideValidation() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let short = await caughtAuthError {
                _ = try await supabase.signUp(email: "grace@example.com", password: "12345")
            }
            #expect(short?.code == .validationFailed)
            #expect(short?.kind == .invalidInput)
            let type = await caughtAuthError {
                _ = try await supabase.client.perform(
                    action: "resendConfirmation", arguments: ["email": .string("a@b.c"), "type": .string("sms")])
            }
            #expect(type?.code == .validationFailed)
            let scope = await caughtAuthError { try await supabase.client.signOut(scope: "everywhere") }
            #expect(scope?.code == .validationFailed)
            let empty = await caughtAuthError { _ = try await supabase.signIn(email: "", password: "x") }
            #expect(empty?.code == .validationFailed)
            #expect(harness.gotrue.requests.isEmpty)
        }
    }
}
