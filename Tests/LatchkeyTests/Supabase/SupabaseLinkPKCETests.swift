import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Supabase: sign-up, resend, magic-link and recovery emails with a PKCE challenge", timeLimit(minutes: 2))
struct SupabaseLinkPKCETests {
    static let email = "grace@example.com"
    static let password = "hopper-1906"

    /// The challenge of a recorded request's body (empty when absent).
    static func challenge(_ request: RecordedRequest?) -> String {
        (request?.jsonBody as? [String: Any])?["code_challenge"] as? String ?? ""
    }

    @Test("Sign-up sends the challenge; a second process over the same store exchanges the link's code")
    func signUpConfirmationInAnotherProcess() async throws {
        try await withSupabase(autoconfirm: false) { harness in
            let supabase = try harness.makeClient()
            let result = try await supabase.signUp(email: Self.email, password: Self.password)

            guard case .user = result else {
                Issue.record("expected a user awaiting confirmation, got \(result)")
                return
            }
            let signUp = harness.gotrue.requests("/signup").first
            let challenge = Self.challenge(signUp)
            expectGoTrueRequest(
                signUp, "POST", "/signup", query: ["redirect_to": SupabaseAppURLs.callback.absoluteString],
                body: [
                    "email": Self.email, "password": Self.password, "code_challenge": challenge,
                    "code_challenge_method": "s256",
                ])
            #expect(challenge.count == 43)
            let pending = try #require(try await harness.storedPending())
            #expect(pending.count == 1)
            let verifier = try #require(pending.first?["codeVerifier"] as? String)
            #expect(PKCE.challenge(for: verifier) == challenge, "the stored verifier is the challenge's")
            #expect(pending.first?["redirectURI"] as? String == SupabaseAppURLs.callback.absoluteString)
            #expect(try await harness.storedSession() == nil)

            let mail = try #require(harness.gotrue.outbox.last)
            let link = try await HeadlessUserAgent().follow(mail.link, until: SupabaseAppURLs.callback)
            let code = try #require(link.supabaseQueryItems["code"])
            harness.gotrue.resetRecording()

            // The app was killed after sign-up: a new client reads the verifier from the store.
            let relaunched = try harness.makeClient()
            #expect(await relaunched.client.canHandle(link))
            let router = CallbackRouter(clients: [relaunched.client])
            #expect(await router.handle(link))

            #expect(harness.gotrue.requests.count == 1, "one token request, nothing else")
            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/token", query: ["grant_type": "pkce"],
                body: ["auth_code": code, "code_verifier": verifier])
            #expect(relaunched.client.state.user?.email == Self.email)
            #expect(try await harness.storedPending() == nil)
            #expect(try await harness.storedSession() != nil)
        }
    }

    @Test("Resend sends a new challenge; the resent link is exchanged with the resend's verifier")
    func resendConfirmation() async throws {
        try await withSupabase(autoconfirm: false) { harness in
            let supabase = try harness.makeClient(
                redirectURIs: ["confirmation": SupabaseAppURLs.confirmation])
            _ = try await supabase.signUp(email: Self.email, password: Self.password)
            let first = Self.challenge(harness.gotrue.requests("/signup").first)

            let resent = try await supabase.resendConfirmation(email: Self.email, type: .signup)

            #expect(resent == .none)
            let resend = harness.gotrue.requests("/resend").first
            let second = Self.challenge(resend)
            expectGoTrueRequest(
                resend, "POST", "/resend", query: ["redirect_to": SupabaseAppURLs.confirmation.absoluteString],
                body: [
                    "type": "signup", "email": Self.email, "code_challenge": second, "code_challenge_method": "s256",
                ])
            #expect(second != first && second.count == 43)
            #expect(try await harness.storedPending()?.count == 2)

            let mail = try #require(harness.gotrue.outbox.last)
            let link = try await HeadlessUserAgent().follow(mail.link, until: SupabaseAppURLs.confirmation)
            harness.gotrue.resetRecording()
            let session = try await supabase.client.handleCallback(link)

            let exchange = harness.gotrue.requests.first
            let verifier = (exchange?.jsonBody as? [String: Any])?["code_verifier"] as? String ?? ""
            expectGoTrueRequest(
                exchange, "POST", "/token", query: ["grant_type": "pkce"],
                body: ["auth_code": link.supabaseQueryItems["code"] ?? "", "code_verifier": verifier])
            #expect(PKCE.challenge(for: verifier) == second)
            #expect(session.user?.email == Self.email)
            #expect(try await harness.storedPending()?.count == 1, "the sign-up's own flow is still waiting")
        }
    }

    @Test("A magic link: POST /otp with the challenge, the link's code exchanged; create_user false is honoured")
    func magicLink() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            let supabase = try harness.makeClient()

            let sent = try await supabase.signInWithOTP(email: Self.email)

            #expect(sent == .none)
            let otp = harness.gotrue.requests("/otp").first
            let challenge = Self.challenge(otp)
            expectGoTrueRequest(
                otp, "POST", "/otp", query: ["redirect_to": SupabaseAppURLs.callback.absoluteString],
                body: ["email": Self.email, "code_challenge": challenge, "code_challenge_method": "s256"])
            let mail = try #require(harness.gotrue.outbox.last)
            #expect(mail.type == "magiclink")
            let link = try await HeadlessUserAgent().follow(mail.link, until: SupabaseAppURLs.callback)
            harness.gotrue.resetRecording()

            let session = try await supabase.client.handleCallback(link)

            #expect(harness.gotrue.requests.count == 1)
            let verifier = (harness.gotrue.requests.first?.jsonBody as? [String: Any])?["code_verifier"] as? String
            #expect(verifier.map(PKCE.challenge(for:)) == challenge)
            #expect(session.user?.email == Self.email)

            try await supabase.client.signOut(scope: "local")
            harness.gotrue.resetRecording()
            let refused = await caughtAuthError {
                _ = try await supabase.signInWithOTP(email: "nobody@example.com", shouldCreateUser: false)
            }
            #expect(refused?.code == .init(rawValue: "provider_disabled"))
            #expect(refused?.providerCode == "otp_disabled")
            let body = harness.gotrue.requests.first?.jsonBody as? [String: Any]
            #expect(body?["create_user"] as? Bool == false)
            #expect(try await harness.storeIsEmpty(), "a refused request keeps no verifier")
        }
    }

    @Test("A recovery link's code exchange publishes password_recovery")
    func recoveryEvent() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            let supabase = try harness.makeClient(redirectURIs: ["recovery": SupabaseAppURLs.recovery])
            let events = supabase.client.events()
            _ = try await supabase.resetPasswordForEmail(email: Self.email)
            #expect(
                await nextEvent(events, within: .milliseconds(300)) == nil, "nothing happens before the link is opened")
            let mail = try #require(harness.gotrue.outbox.last)
            let link = try await HeadlessUserAgent().follow(mail.link, until: SupabaseAppURLs.recovery)

            let relaunched = try harness.makeClient(redirectURIs: ["recovery": SupabaseAppURLs.recovery])
            let relaunchedEvents = relaunched.client.events()
            _ = try await relaunched.client.handleCallback(link)

            #expect(await nextEvent(relaunchedEvents) == .passwordRecovery)
        }
    }

    @Test("An auto-confirmed sign-up signs in at once and keeps no verifier")
    func autoconfirmedSignUpKeepsNothing() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let result = try await supabase.signUp(email: Self.email, password: Self.password)
            guard case .session = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(Self.challenge(harness.gotrue.requests.first).count == 43)
            #expect(try await harness.storedPending() == nil)
            #expect(try await harness.storedSession() != nil)
        }
    }
}
