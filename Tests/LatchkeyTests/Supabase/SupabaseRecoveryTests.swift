import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Supabase: password recovery, update password, ID-token sign-in")
struct SupabaseRecoveryTests {
    static let email = "ada@example.com"
    static let oldPassword = "correct-horse"
    static let newPassword = "battery-staple"

    @Test("Password reset: PKCE challenge, the link routed by its path to a recovery session, then updatePassword")
    func recoveryWithRedirectTo() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.oldPassword)
            let supabase = try harness.makeClient()
            // A browser sign-in pending on the other path must not take the recovery link.
            let oauth = try await supabase.client.prepareAuthorization(
                redirectURI: SupabaseAppURLs.callback, additionalParameters: ["provider": "google"])

            let result = try await supabase.resetPasswordForEmail(
                email: Self.email, redirectTo: SupabaseAppURLs.recovery)

            #expect(result == .none)
            let recover = harness.gotrue.requests("/recover").first
            let challenge = (recover?.jsonBody as? [String: Any])?["code_challenge"] as? String ?? ""
            expectGoTrueRequest(
                recover, "POST", "/recover", query: ["redirect_to": SupabaseAppURLs.recovery.absoluteString],
                body: ["email": Self.email, "code_challenge": challenge, "code_challenge_method": "s256"])
            #expect(challenge.count == 43)
            #expect(try await harness.storedPending()?.count == 2)
            let mail = try #require(harness.gotrue.outbox.last)
            #expect(mail.type == "recovery")

            let link = try await HeadlessUserAgent().follow(mail.link, until: SupabaseAppURLs.recovery)
            #expect(link.host == "password-recovery")
            let code = try #require(link.supabaseQueryItems["code"])
            let results = RoutedResults()
            let router = CallbackRouter(clients: [supabase.client]) { _, result in results.record(result) }
            #expect(await router.handle(link))

            let session = try #require(try results.all.first?.get())
            let exchange = harness.gotrue.requests("/token").first
            let verifier = (exchange?.jsonBody as? [String: Any])?["code_verifier"] as? String ?? ""
            expectGoTrueRequest(
                exchange, "POST", "/token", query: ["grant_type": "pkce"],
                body: ["auth_code": code, "code_verifier": verifier])
            #expect(PKCE.challenge(for: verifier) == challenge)
            #expect(session.user?.email == Self.email)
            #expect(supabase.client.state.isSignedIn)
            let pending = try await harness.storedPending()
            #expect(pending?.count == 1)
            #expect(pending?.first?["state"] as? String == oauth.state, "only the recovery flow was used")

            // The new password: the action's minimum length first, with no request.
            let before = harness.gotrue.requests.count
            let short = await caughtAuthError { _ = try await supabase.updatePassword(password: "12345") }
            #expect(short?.code == .validationFailed)
            #expect(short?.kind == .invalidInput)
            #expect(harness.gotrue.requests.count == before)

            let updated = try await supabase.updatePassword(password: Self.newPassword)
            expectGoTrueRequest(
                harness.gotrue.requests.last, "PUT", "/user", bearer: session.accessToken,
                body: ["password": Self.newPassword])
            guard case .user(let user) = updated else {
                Issue.record("expected a user, got \(updated)")
                return
            }
            #expect(user.id == session.user?.id)
            #expect(harness.gotrue.password(of: Self.email) == Self.newPassword)

            let same = await caughtAuthError { _ = try await supabase.updatePassword(password: Self.newPassword) }
            #expect(same?.code == "weak_password")
            #expect(same?.providerCode == "same_password")

            try await supabase.client.signOut()
            let old = await caughtAuthError {
                _ = try await supabase.signIn(email: Self.email, password: Self.oldPassword)
            }
            #expect(old?.code == .invalidCredentials)
            _ = try await supabase.signIn(email: Self.email, password: Self.newPassword)
        }
    }

    @Test(
        "With redirectURIs[\"recovery\"] configured, the reset sends it as redirect_to; a relaunched client takes the link"
    )
    func recoveryWithConfiguredRedirect() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.oldPassword)
            let supabase = try harness.makeClient(redirectURIs: ["recovery": SupabaseAppURLs.recovery])

            _ = try await supabase.resetPasswordForEmail(email: Self.email)

            let recover = harness.gotrue.requests("/recover").first
            let challenge = (recover?.jsonBody as? [String: Any])?["code_challenge"] as? String ?? ""
            expectGoTrueRequest(
                recover, "POST", "/recover", query: ["redirect_to": SupabaseAppURLs.recovery.absoluteString],
                body: ["email": Self.email, "code_challenge": challenge, "code_challenge_method": "s256"])
            let mail = try #require(harness.gotrue.outbox.last)
            let link = try await HeadlessUserAgent().follow(mail.link, until: SupabaseAppURLs.recovery)

            let relaunched = try harness.makeClient(redirectURIs: ["recovery": SupabaseAppURLs.recovery])
            #expect(await relaunched.client.canHandle(link))
            let session = try await relaunched.client.handleCallback(link)
            #expect(session.user?.email == Self.email)
            #expect(relaunched.client.state.isSignedIn)
            #expect(try await harness.storedPending() == nil)
        }
    }

    @Test("A reset towards a page the app does not handle sends no challenge and keeps nothing pending")
    func recoveryWithoutAppRedirect() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.oldPassword)
            let supabase = try harness.makeClient()
            let page = URL(string: "https://example.com/reset-password")!

            _ = try await supabase.resetPasswordForEmail(email: Self.email, redirectTo: page)
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/recover", query: ["redirect_to": page.absoluteString],
                body: ["email": Self.email])

            let unknown = try await supabase.resetPasswordForEmail(email: "nobody@example.com")
            #expect(unknown == .none, "GoTrue answers {} whether or not the account exists")
            expectGoTrueRequest(harness.gotrue.requests.last, "POST", "/recover", body: ["email": "nobody@example.com"])
            #expect(try await harness.storeIsEmpty())
        }
    }

    @Test("A used or expired recovery link is otp_expired and sends no token request")
    func usedRecoveryLink() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.oldPassword)
            let supabase = try harness.makeClient()
            _ = try await supabase.resetPasswordForEmail(email: Self.email, redirectTo: SupabaseAppURLs.recovery)
            let mail = try #require(harness.gotrue.outbox.last)
            _ = try await HeadlessUserAgent().follow(mail.link, until: SupabaseAppURLs.recovery)
            // Opened a second time (a mail scanner got there first, say).
            let failed = try await HeadlessUserAgent().follow(mail.link, until: SupabaseAppURLs.recovery)
            #expect(failed.supabaseQueryItems["error_code"] == "otp_expired")

            let error = await caughtAuthError { _ = try await supabase.client.handleCallback(failed) }

            #expect(error?.code == "otp_expired")
            #expect(error?.kind == .rejected)
            #expect(error?.providerCode == "otp_expired")
            #expect(harness.gotrue.requests("/token").isEmpty)
            #expect(supabase.client.state == .signedOut)
        }
    }

    @Test("Native Apple sign-in with an ID token and its raw nonce")
    func signInWithAppleIDToken() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let nonce = "3f1b1c5e-raw-nonce"
            let idToken = GoTrueServer.idToken(
                provider: "apple", sub: "001234.abcdef", email: "ada@privaterelay.appleid.com", nonce: nonce)

            let result = try await supabase.signInWithIdToken(provider: .apple, idToken: idToken, nonce: nonce)

            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/token", query: ["grant_type": "id_token"],
                body: ["provider": "apple", "id_token": idToken, "nonce": nonce])
            guard case .session(let session) = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(session.user?.email == "ada@privaterelay.appleid.com")
            #expect(supabase.client.state.isSignedIn)
            #expect(try await harness.storedSession() != nil)
        }
    }

    @Test("Native Google sign-in sends the provider's access token too")
    func signInWithGoogleIDToken() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let idToken = GoTrueServer.idToken(provider: "google", sub: "1098765", email: "ada@gmail.com", nonce: nil)

            _ = try await supabase.signInWithIdToken(
                provider: .google, idToken: idToken, providerAccessToken: "ya29.google")

            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/token", query: ["grant_type": "id_token"],
                body: ["provider": "google", "id_token": idToken, "access_token": "ya29.google"])
            #expect(supabase.client.state.isSignedIn)
        }
    }

    @Test("ID-token errors come in GoTrue's OAuth shape and map to invalid_request")
    func idTokenErrors() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            #expect(await supabase.client.restore() == .signedOut)
            let wrongNonce = GoTrueServer.idToken(provider: "apple", sub: "001", email: "a@b.c", nonce: "other")
            let mismatch = await caughtAuthError {
                _ = try await supabase.signInWithIdToken(provider: .apple, idToken: wrongNonce, nonce: "mine")
            }
            #expect(mismatch?.code == .init(rawValue: "invalid_request"))
            #expect(mismatch?.kind == .invalidInput)
            #expect(mismatch?.providerCode == "invalid nonce")
            #expect(mismatch?.status == 400)
            #expect(mismatch?.message.contains("Nonces mismatch") == true)

            let noSubject = GoTrueServer.idToken(provider: "apple", sub: nil, email: "a@b.c", nonce: nil)
            let missing = await caughtAuthError {
                _ = try await supabase.signInWithIdToken(provider: .apple, idToken: noSubject)
            }
            #expect(missing?.code == .init(rawValue: "invalid_request"))
            #expect(missing?.providerCode == "invalid request")
            #expect(missing?.message.contains("Missing sub claim") == true)

            let before = harness.gotrue.requests.count
            let provider = await caughtAuthError {
                _ = try await supabase.client.perform(
                    action: "signInWithIdToken", arguments: ["provider": .string("github"), "idToken": .string("x")])
            }
            #expect(provider?.code == .validationFailed)
            #expect(harness.gotrue.requests.count == before)
            #expect(supabase.client.state == .signedOut)
        }
    }
}
