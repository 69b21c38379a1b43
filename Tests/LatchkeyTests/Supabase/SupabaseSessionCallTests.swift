import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// supabase-swift's session and user calls (`Sources/Auth/AuthClient.swift`: `setSession`, `refreshSession`,
/// `exchangeCodeForSession`, `user(jwt:)`, `reauthenticate`, `update(user:)`, and the `data`, `captchaToken` and
/// `redirectTo` arguments of the email calls), on the wire.
@Suite("Supabase: session and user calls", timeLimit(minutes: 2))
struct SupabaseSessionCallTests {
    static let email = "ada@example.com"
    static let password = "correct-horse"

    /// A session made on the server by another client (so the app under test has none).
    private func issued(_ harness: SupabaseHarness) async throws -> Session {
        harness.gotrue.addUser(email: Self.email, password: Self.password)
        let other = try harness.makeClient(store: InMemorySessionStore())
        let session = try await other.signIn(email: Self.email, password: Self.password)
        harness.gotrue.resetRecording()
        return session
    }

    @Test("refreshSession(refreshToken:) redeems a refresh token the app holds and stores the session")
    func refreshSessionWithToken() async throws {
        try await withSupabase { harness in
            let held = try await issued(harness)
            let app = try harness.makeClient()
            #expect(await app.client.restore() == .signedOut)

            let session = try await app.refreshSession(refreshToken: held.refreshToken!)

            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/token", query: ["grant_type": "refresh_token"],
                body: ["refresh_token": held.refreshToken!])
            #expect(session.refreshToken != held.refreshToken)
            #expect(app.client.state.isSignedIn)
            #expect(try await harness.storedSession()?["refreshToken"] as? String == session.refreshToken)
        }
    }

    @Test("setSession with a valid access token: one GET /user with it, and the two tokens become the session")
    func setSessionValid() async throws {
        try await withSupabase { harness in
            let held = try await issued(harness)
            let app = try harness.makeClient()

            let session = try await app.setSession(accessToken: held.accessToken, refreshToken: held.refreshToken!)

            #expect(harness.gotrue.requests.count == 1, "no refresh for a valid access token")
            expectGoTrueRequest(harness.gotrue.requests.first, "GET", "/user", bearer: held.accessToken)
            #expect(session.accessToken == held.accessToken)
            #expect(session.refreshToken == held.refreshToken)
            #expect(session.user?.email == Self.email)
            let exp = try #require(GoTrueServer.claims(of: held.accessToken)?["exp"] as? Int)
            #expect(session.expiresAt == Date(timeIntervalSince1970: TimeInterval(exp)), "the token's own expiry")
            #expect(try await harness.storedSession()?["accessToken"] as? String == held.accessToken)
        }
    }

    @Test("setSession with an expired access token refreshes with the refresh token instead, and sends no GET /user")
    func setSessionExpired() async throws {
        try await withSupabase { harness in
            harness.gotrue.issueExpiredSessions(1)
            let held = try await issued(harness)
            let app = try harness.makeClient()

            let session = try await app.setSession(accessToken: held.accessToken, refreshToken: held.refreshToken!)

            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/token", query: ["grant_type": "refresh_token"],
                body: ["refresh_token": held.refreshToken!])
            #expect(session.accessToken != held.accessToken)
            #expect(app.client.state.isSignedIn)
        }
    }

    @Test("exchangeCodeForSession(authCode:) exchanges a magic link's bare code with the pending verifier")
    func exchangeBareCode() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            let app = try harness.makeClient()
            _ = try await app.signInWithOTP(email: Self.email, data: ["plan": .string("pro")], captchaToken: "c-9")
            let otp = harness.gotrue.requests("/otp").first
            let challenge = (otp?.jsonBody as? [String: Any])?["code_challenge"] as? String ?? ""
            expectGoTrueRequest(
                otp, "POST", "/otp", query: ["redirect_to": SupabaseAppURLs.callback.absoluteString],
                body: [
                    "email": Self.email, "data": ["plan": "pro"], "gotrue_meta_security": ["captcha_token": "c-9"],
                    "code_challenge": challenge, "code_challenge_method": "s256",
                ])
            let verifier = try #require(try await harness.storedPending()?.first?["codeVerifier"] as? String)
            let link = try await HeadlessUserAgent().follow(
                try #require(harness.gotrue.outbox.last).link, until: SupabaseAppURLs.callback)
            let code = try #require(link.supabaseQueryItems["code"])
            harness.gotrue.resetRecording()

            let session = try await app.exchangeCodeForSession(authCode: code)

            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/token", query: ["grant_type": "pkce"],
                body: ["auth_code": code, "code_verifier": verifier])
            #expect(session.user?.email == Self.email)
            #expect(try await harness.storedPending() == nil)

            // No sign-in waits any more: a second code is refused with no request.
            let error = await caughtAuthError { _ = try await app.exchangeCodeForSession(authCode: code) }
            #expect(error?.code == .invalidCallback)
            #expect(harness.gotrue.requests.count == 1)
        }
    }

    @Test("user(jwt:) sends that token, never the session's, and a refusal of it keeps the session")
    func userWithJWT() async throws {
        try await withSupabase { harness in
            let other = try await issued(harness)
            let app = try harness.makeClient()
            let mine = try await app.signIn(email: Self.email, password: Self.password)
            harness.gotrue.resetRecording()

            let result = try await app.user(jwt: other.accessToken)

            expectGoTrueRequest(harness.gotrue.requests.first, "GET", "/user", bearer: other.accessToken)
            guard case .user(let user) = result else {
                Issue.record("expected a user, got \(result)")
                return
            }
            #expect(user.email == Self.email)
            #expect(await app.client.cachedSession?.accessToken == mine.accessToken)

            // The other session ends: GoTrue says session_not_found for its token, which is not this session's.
            let otherClient = try harness.makeClient(store: InMemorySessionStore())
            _ = try await otherClient.client.setSession(
                accessToken: other.accessToken, refreshToken: other.refreshToken!)
            try await otherClient.signOut(scope: .local)
            let error = await caughtAuthError { _ = try await app.user(jwt: other.accessToken) }
            #expect(error?.providerCode == "session_not_found")
            #expect(app.client.state.isSignedIn)
            #expect(try await harness.storedSession() != nil)
            expectNoSecrets(error, [other.accessToken])
        }
    }

    @Test(
        "reauthenticate() then updateUser(password:nonce:); updateUser(email:phone:data:redirectTo:) with a PKCE challenge"
    )
    func reauthenticateAndUpdate() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            let app = try harness.makeClient()
            let missing = await caughtAuthError { _ = try await app.reauthenticate() }
            #expect(missing?.code == .sessionMissing)
            #expect(harness.gotrue.requests.isEmpty)
            let session = try await app.signIn(email: Self.email, password: Self.password)
            harness.gotrue.resetRecording()

            _ = try await app.reauthenticate()
            expectGoTrueRequest(harness.gotrue.requests.first, "GET", "/reauthenticate", bearer: session.accessToken)
            let nonce = try #require(harness.gotrue.nonce(of: Self.email))

            _ = try await app.updateUser(password: "new-password-1", nonce: nonce)
            expectGoTrueRequest(
                harness.gotrue.requests.last, "PUT", "/user", bearer: session.accessToken,
                body: ["password": "new-password-1", "nonce": nonce])
            #expect(harness.gotrue.password(of: Self.email) == "new-password-1")

            #expect(try await harness.storedPending() == nil, "no email change: no challenge, nothing pending")

            let result = try await app.updateUser(
                email: "ada.lovelace@example.com", phone: "+15555550100", data: ["theme": .string("dark")],
                redirectTo: URL(string: "dev.example.app://email-changed")!)
            let update = harness.gotrue.requests.last
            let challenge = (update?.jsonBody as? [String: Any])?["code_challenge"] as? String ?? ""
            expectGoTrueRequest(
                update, "PUT", "/user", query: ["redirect_to": "dev.example.app://email-changed"],
                bearer: session.accessToken,
                body: [
                    "email": "ada.lovelace@example.com", "phone": "+15555550100", "data": ["theme": "dark"],
                    "code_challenge": challenge, "code_challenge_method": "s256",
                ])
            // An email change sends a challenge (as supabase-swift's update(user:) does) and keeps its verifier.
            let pending = try #require(try await harness.storedPending()?.first)
            #expect(PKCE.challenge(for: pending["codeVerifier"] as? String ?? "") == challenge)
            #expect(pending["redirectURI"] as? String == "dev.example.app://email-changed")
            guard case .user(let user) = result else {
                Issue.record("expected a user, got \(result)")
                return
            }
            #expect(user.attributes.value(at: "/user_metadata/theme") == .string("dark"))
            #expect(harness.gotrue.messages.last?.type == "phone_change")
            #expect(
                await app.client.cachedSession?.user?.attributes.value(at: "/user_metadata/theme") == .string("dark"))
        }
    }

    @Test("Email calls carry data, the CAPTCHA token and verifyOTP's redirect_to as supabase-swift sends them")
    func emailCallArguments() async throws {
        try await withSupabase(autoconfirm: false) { harness in
            let app = try harness.makeClient()
            _ = try await app.signUp(
                email: Self.email, password: Self.password, data: ["plan": .string("free")], captchaToken: "c-1")
            let signUp = harness.gotrue.requests("/signup").first
            let challenge = (signUp?.jsonBody as? [String: Any])?["code_challenge"] as? String ?? ""
            expectGoTrueRequest(
                signUp, "POST", "/signup", query: ["redirect_to": SupabaseAppURLs.callback.absoluteString],
                body: [
                    "email": Self.email, "password": Self.password, "data": ["plan": "free"],
                    "gotrue_meta_security": ["captcha_token": "c-1"], "code_challenge": challenge,
                    "code_challenge_method": "s256",
                ])
            let mail = try #require(harness.gotrue.outbox.last)

            _ = try await app.verifyOTP(
                type: .signup, email: Self.email, token: mail.token,
                redirectTo: URL(string: "https://example.com/welcome")!, captchaToken: "c-2")

            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/verify", query: ["redirect_to": "https://example.com/welcome"],
                body: [
                    "type": "signup", "email": Self.email, "token": mail.token,
                    "gotrue_meta_security": ["captcha_token": "c-2"],
                ])
            #expect(app.client.state.isSignedIn)
            #expect(harness.gotrue.captchaTokens == ["c-1", "c-2"])
        }
    }
}
