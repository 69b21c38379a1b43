import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Anonymous sign-in and phone numbers, generated from supabase.json, on the wire as supabase-swift sends them
/// (`signInAnonymously`, `signUp(phone:…)`, `signIn(phone:…)`, `signInWithOTP(phone:…)`, `verifyOTP(phone:…)`,
/// `resend(phone:…)` in its `Sources/Auth/AuthClient.swift`).
@Suite("Supabase: anonymous sign-in and phone numbers", timeLimit(minutes: 2))
struct SupabasePhoneTests {
    static let phone = "+15555550100"
    static let password = "lovelace-1815"

    @Test("signInAnonymously: POST /signup with data and the CAPTCHA token nested, or an empty body; a session")
    func anonymous() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let result = try await supabase.signInAnonymously(
                data: ["plan": .string("free")], captchaToken: "captcha-1")

            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/signup",
                body: ["data": ["plan": "free"], "gotrue_meta_security": ["captcha_token": "captcha-1"]])
            guard case .session(let session) = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(supabase.client.state.isSignedIn)
            #expect(try await harness.storedSession()?["accessToken"] as? String == session.accessToken)
            #expect(session.user?.attributes.value(at: "/is_anonymous") == .bool(true))
            #expect(harness.gotrue.metadata(ofUser: session.user?.id ?? "")?["plan"] as? String == "free")

            // Without arguments nothing optional is sent: not even an empty gotrue_meta_security.
            let other = try harness.makeClient(store: InMemorySessionStore())
            _ = try await other.signInAnonymously()
            expectGoTrueRequest(harness.gotrue.requests.last, "POST", "/signup", body: [:])
            #expect(harness.gotrue.captchaTokens == ["captcha-1"])
        }
    }

    @Test("signUp(phone:) sends channel and data; the SMS code verifies with verifyOTP(phone:token:type:)")
    func phoneSignUpAndVerify() async throws {
        try await withSupabase(autoconfirm: false) { harness in
            let supabase = try harness.makeClient()
            let result = try await supabase.signUp(
                phone: Self.phone, password: Self.password, channel: .whatsapp, data: ["name": .string("Ada")])

            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/signup",
                body: ["phone": Self.phone, "password": Self.password, "channel": "whatsapp", "data": ["name": "Ada"]])
            guard case .user = result else {
                Issue.record("expected a user awaiting the code, got \(result)")
                return
            }
            #expect(try await harness.storedSession() == nil)
            #expect(try await harness.storedPending() == nil, "no PKCE for phone sign-ups")
            let message = try #require(harness.gotrue.messages.last)
            #expect(message.channel == "whatsapp")
            harness.gotrue.resetRecording()

            let verified = try await supabase.verifyOTP(phone: Self.phone, token: message.token, type: .sms)

            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/verify",
                body: ["type": "sms", "phone": Self.phone, "token": message.token])
            guard case .session = verified else {
                Issue.record("expected a session, got \(verified)")
                return
            }
            #expect(supabase.client.state.isSignedIn)
            #expect(try await harness.storedSession() != nil)
        }
    }

    @Test("signIn(phone:password:captchaToken:): POST /token?grant_type=password with phone; a session")
    func phonePasswordSignIn() async throws {
        try await withSupabase { harness in
            harness.gotrue.addPhoneUser(phone: Self.phone, password: Self.password)
            let supabase = try harness.makeClient()

            let result = try await supabase.signIn(phone: Self.phone, password: Self.password, captchaToken: "c-2")

            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/token", query: ["grant_type": "password"],
                body: [
                    "phone": Self.phone, "password": Self.password, "gotrue_meta_security": ["captcha_token": "c-2"],
                ])
            guard case .session(let session) = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(session.user?.attributes.value(at: "/phone") == .string(Self.phone))
            #expect(supabase.client.state.isSignedIn)

            // A wrong password is the provider's refusal, mapped, with its own text.
            let other = try harness.makeClient(store: InMemorySessionStore())
            let error = await caughtAuthError { _ = try await other.signIn(phone: Self.phone, password: "wrong-one") }
            #expect(error?.code == .invalidCredentials)
            #expect(error?.providerMessage == "Invalid login credentials")
        }
    }

    @Test("signIn(email:password:captchaToken:) sends the CAPTCHA token; signIn(email:password:) sends none")
    func emailPasswordWithCaptcha() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: Self.password)
            let supabase = try harness.makeClient()

            let result = try await supabase.signIn(
                email: "ada@example.com", password: Self.password, captchaToken: "c-4")

            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/token", query: ["grant_type": "password"],
                body: [
                    "email": "ada@example.com", "password": Self.password,
                    "gotrue_meta_security": ["captcha_token": "c-4"],
                ])
            guard case .session = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(supabase.client.state.isSignedIn)
            _ = try await supabase.signIn(email: "ada@example.com", password: Self.password)
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/token", query: ["grant_type": "password"],
                body: ["email": "ada@example.com", "password": Self.password])
            #expect(harness.gotrue.captchaTokens == ["c-4"])
        }
    }

    @Test("signInWithOTP(phone:) with channel, shouldCreateUser and data answers GoTrue's message_id")
    func phoneOTP() async throws {
        try await withSupabase { harness in
            harness.gotrue.addPhoneUser(phone: Self.phone, password: Self.password)
            let supabase = try harness.makeClient()

            let result = try await supabase.signInWithOTP(
                phone: Self.phone, channel: .whatsapp, shouldCreateUser: false, captchaToken: "c-3")

            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/otp",
                body: [
                    "phone": Self.phone, "channel": "whatsapp", "create_user": false,
                    "gotrue_meta_security": ["captcha_token": "c-3"],
                ])
            #expect(result == .document(.object(["message_id": .string("SM1")])))
            #expect(try await harness.storeIsEmpty(), "no PKCE, nothing pending, no session")

            let unknown = await caughtAuthError {
                _ = try await supabase.signInWithOTP(phone: "+15555550199", shouldCreateUser: false)
            }
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/otp",
                body: ["phone": "+15555550199", "channel": "sms", "create_user": false])
            #expect(unknown?.code.rawValue == "provider_disabled")
            #expect(unknown?.providerCode == "otp_disabled")
            #expect(unknown?.providerMessage == "Signups not allowed for otp")
        }
    }

    @Test("resend(phone:type:) sends a new SMS code")
    func resendPhone() async throws {
        try await withSupabase { harness in
            harness.gotrue.addPhoneUser(phone: Self.phone, password: Self.password)
            let supabase = try harness.makeClient()

            let result = try await supabase.resend(phone: Self.phone, type: .sms)

            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/resend", body: ["type": "sms", "phone": Self.phone])
            #expect(result == .document(.object(["message_id": .string("SM1")])))
            #expect(harness.gotrue.messages.count == 1)
        }
    }

    @Test("Arguments outside the descriptor's values, or a short password, fail before any request")
    func validationBeforeAnyRequest() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            // The generated methods take the values' enums; the runtime still checks a string given to
            // perform(action:arguments:) against the descriptor's values.
            let failures: [AuthError?] = [
                await caughtAuthError {
                    _ = try await supabase.client.perform(
                        action: "signUpWithPhone",
                        arguments: [
                            "phone": .string(Self.phone), "password": .string(Self.password),
                            "channel": .string("pigeon"),
                        ])
                },
                await caughtAuthError { _ = try await supabase.signUp(phone: Self.phone, password: "short") },
                await caughtAuthError {
                    _ = try await supabase.client.perform(
                        action: "verifyPhoneOTP",
                        arguments: ["phone": .string(Self.phone), "token": .string("1"), "type": .string("email")])
                },
                await caughtAuthError {
                    _ = try await supabase.client.perform(
                        action: "resendPhone", arguments: ["phone": .string(Self.phone), "type": .string("signup")])
                },
                await caughtAuthError {
                    _ = try await supabase.client.perform(
                        action: "signInWithPhoneOTP",
                        arguments: ["phone": .string(Self.phone), "channel": .string("fax")])
                },
            ]
            for error in failures { #expect(error?.code == .validationFailed) }
            #expect(harness.gotrue.requests.isEmpty)
        }
    }
}
