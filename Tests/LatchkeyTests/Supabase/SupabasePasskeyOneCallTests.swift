import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// supabase-swift's one-call first-factor passkeys (`Sources/Auth/WebAuthn/AuthClient+Passkey.swift`:
/// `signInWithPasskey(presentationAnchor:)`, `registerPasskey(presentationAnchor:)`), generated from the
/// descriptor's `then` with a `ceremony`, driven on Linux by an authenticator that answers with supabase-swift's
/// recorded credential JSON.
@Suite("Supabase: one-call passkey ceremonies", timeLimit(minutes: 2))
struct SupabasePasskeyOneCallTests {
    static let email = "ada@example.com"
    static let password = "lovelace-1815"

    /// A signed-in client and its session, with nothing recorded.
    static func signedIn(_ harness: SupabaseHarness) async throws -> (SupabaseClient, Session) {
        try await harness.signedIn(email: email, password: password)
    }

    @Test(
        "registerPasskey(authenticator:): the creation options, a registration for their rp.id, then verify with the challenge id and the credential as it is"
    )
    func register() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await Self.signedIn(harness)
            let authenticator = FixedPasskeyAuthenticator()

            let result = try await supabase.registerPasskey(authenticator: authenticator)

            let requests = harness.gotrue.requests
            #expect(requests.count == 2)
            expectGoTrueRequest(
                requests.first, "POST", "/passkeys/registration/options", bearer: session.accessToken)
            let challengeID = try #require(harness.gotrue.passkeyChallengeIDs.last)
            expectGoTrueRequest(
                requests.last, "POST", "/passkeys/registration/verify", bearer: session.accessToken,
                body: [
                    "challenge_id": challengeID,
                    "credential": FixedPasskeyAuthenticator.foundation(FixedPasskeyAuthenticator.registrationJSON),
                ])
            guard case .registration(let asked)? = authenticator.asked.first, authenticator.asked.count == 1 else {
                Issue.record("expected one registration, got \(authenticator.asked)")
                return
            }
            // The relying party is the one the server's options name, not the server's host.
            #expect(asked.relyingPartyID == GoTrueState.relyingParty)
            #expect(asked.challenge == Data("challenge".utf8))
            #expect(asked.userName == Self.email)
            guard case .document(let stored) = result else {
                Issue.record("expected the stored passkey, got \(result)")
                return
            }
            #expect(harness.gotrue.passkeyIDs(ofUserWithEmail: Self.email) == [stored.value(at: "/id")?.string])
        }
    }

    @Test(
        "signInWithPasskey(authenticator:): the assertion options, an assertion for their rpId, then verify without a bearer; the session is installed"
    )
    func signIn() async throws {
        try await withSupabase { harness in
            let (registering, _) = try await Self.signedIn(harness)
            _ = try await registering.registerPasskey(authenticator: FixedPasskeyAuthenticator())
            harness.gotrue.resetRecording()
            let supabase = try harness.makeClient(store: InMemorySessionStore())
            let authenticator = FixedPasskeyAuthenticator()

            let result = try await supabase.signInWithPasskey(authenticator: authenticator)

            let requests = harness.gotrue.requests
            #expect(requests.count == 2)
            expectGoTrueRequest(requests.first, "POST", "/passkeys/authentication/options")
            let challengeID = try #require(harness.gotrue.passkeyChallengeIDs.last)
            expectGoTrueRequest(
                requests.last, "POST", "/passkeys/authentication/verify",
                body: [
                    "challenge_id": challengeID,
                    "credential": FixedPasskeyAuthenticator.foundation(FixedPasskeyAuthenticator.assertionJSON),
                ])
            guard case .assertion(let asked)? = authenticator.asked.first, authenticator.asked.count == 1 else {
                Issue.record("expected one assertion, got \(authenticator.asked)")
                return
            }
            #expect(asked.relyingPartyID == GoTrueState.relyingParty)
            #expect(asked.challenge == Data("assertion".utf8))
            guard case .session(let session) = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(session.user?.email == Self.email)
            #expect(try await supabase.currentSession().accessToken == session.accessToken)
        }
    }

    @Test("A cancelled ceremony is login_cancelled: the options were fetched, and no verification is sent")
    func cancelled() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await Self.signedIn(harness)
            let cancelling = FixedPasskeyAuthenticator(failure: AuthError(.loginCancelled, "The sheet was closed."))

            let register = await caughtAuthError { _ = try await supabase.registerPasskey(authenticator: cancelling) }
            #expect(register?.code == .loginCancelled)
            #expect(harness.gotrue.requests.map(\.path) == ["/auth/v1/passkeys/registration/options"])
            #expect(harness.gotrue.passkeyIDs(ofUserWithEmail: Self.email).isEmpty)
            #expect(try await supabase.currentSession().accessToken == session.accessToken)

            harness.gotrue.resetRecording()
            let signingIn = try harness.makeClient(store: InMemorySessionStore())
            let signIn = await caughtAuthError { _ = try await signingIn.signInWithPasskey(authenticator: cancelling) }
            #expect(signIn?.code == .loginCancelled)
            #expect(harness.gotrue.requests.map(\.path) == ["/auth/v1/passkeys/authentication/options"])
            let signedOut = await caughtAuthError { _ = try await signingIn.currentSession() }
            #expect(signedOut?.code == .sessionMissing)
            #expect(harness.gotrue.requests.count == 1)
            #expect(cancelling.asked.count == 2)
        }
    }

    @Test("Without an authenticator, an action with a ceremony is invalid_configuration before any request")
    func noAuthenticator() async throws {
        try await withSupabase { harness in
            let (supabase, _) = try await Self.signedIn(harness)
            for action in ["signInWithPasskey", "registerPasskey"] {
                let error = await caughtAuthError { _ = try await supabase.client.perform(action: action) }
                #expect(error?.code == .invalidConfiguration, "\(action)")
            }
            let mfa = await caughtAuthError {
                _ = try await supabase.client.perform(
                    action: "mfaVerifyWebAuthnFactor", arguments: ["factorId": .string("f")])
            }
            #expect(mfa?.code == .invalidConfiguration)
            #expect(harness.gotrue.requests.isEmpty)
        }
    }
}
