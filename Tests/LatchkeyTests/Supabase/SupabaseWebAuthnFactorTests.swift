import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// WebAuthn MFA factors: `mfa.enroll(params: .webAuthn(...))` and the WebAuthn form of `mfa.verify` on the wire
/// as supabase-swift's recorded requests (`mfaEnrollWebAuthn.1.txt`, `mfaVerifyWebAuthn.1.txt`) carry them, and
/// the one-call `enrollWebAuthnFactor` / `verifyWebAuthnFactor` (`Sources/Auth/WebAuthn/AuthMFA+WebAuthn.swift`).
@Suite("Supabase: WebAuthn factors", timeLimit(minutes: 2))
struct SupabaseWebAuthnFactorTests {
    static var credentialResponse: Any {
        FixedPasskeyAuthenticator.foundation(FixedPasskeyAuthenticator.registrationJSON)
    }

    static func document(_ result: ActionResult) throws -> JSON {
        guard case .document(let document) = result else { throw TestFailure("expected a document, got \(result)") }
        return document
    }

    @Test(
        "enrollWebAuthn(friendlyName:) sends factor_type webauthn and the name; verify(factorId:challengeId:credentialResponse:) nests the credential as it is"
    )
    func enrollAndVerifyOverHTTP() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await SupabaseMFATests.signedIn(harness)
            let events = supabase.client.events()

            let enrolled = try Self.document(try await supabase.mfa.enrollWebAuthn(friendlyName: "My Passkey"))
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/factors", bearer: session.accessToken,
                body: ["factor_type": "webauthn", "friendly_name": "My Passkey"])
            let factorID = try #require(enrolled.value(at: "/id")?.string)
            #expect(enrolled.value(at: "/type") == .string("webauthn"))

            let challenge = try Self.document(try await supabase.mfa.challenge(factorId: factorID))
            let challengeID = try #require(challenge.value(at: "/id")?.string)
            #expect(challenge.value(at: "/webauthn/type") == .string("create"))

            let result = try await supabase.mfa.verify(
                factorId: factorID, challengeId: challengeID,
                credentialResponse: FixedPasskeyAuthenticator.registrationJSON)
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/factors/\(factorID)/verify", bearer: session.accessToken,
                body: [
                    "factor_id": factorID, "challenge_id": challengeID,
                    "webauthn": ["credential_response": Self.credentialResponse],
                ])
            guard case .session(let elevated) = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(GoTrueServer.claims(of: elevated.accessToken)?["aal"] as? String == "aal2")
            #expect(await nextEvent(events, within: .seconds(10)) == AuthEvent("mfa_challenge_verified"))
            #expect(harness.gotrue.factorStatus(factorID) == "verified")
            #expect(harness.gotrue.requests.count == 3)
        }
    }

    @Test(
        "enrollWebAuthnFactor(friendlyName:authenticator:): enroll, challenge, a registration from the challenge's creation options, verify; the aal2 session and one event"
    )
    func enrollInOneCall() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await SupabaseMFATests.signedIn(harness)
            let events = supabase.client.events()
            let authenticator = FixedPasskeyAuthenticator()

            let result = try await supabase.mfa.enrollWebAuthnFactor(
                friendlyName: "My Passkey", authenticator: authenticator)

            let requests = harness.gotrue.requests
            #expect(requests.count == 3)
            expectGoTrueRequest(
                requests.first, "POST", "/factors", bearer: session.accessToken,
                body: ["factor_type": "webauthn", "friendly_name": "My Passkey"])
            let factorID = try #require(harness.gotrue.factorIDs(ofType: "webauthn").first)
            // No body at all, as supabase-swift's challenge without a channel (the request's omitEmptyBody).
            expectGoTrueRequest(
                requests.dropFirst().first, "POST", "/factors/\(factorID)/challenge", bearer: session.accessToken)
            let challengeID = try #require(harness.gotrue.challengeIDs(factorID: factorID).first)
            expectGoTrueRequest(
                requests.last, "POST", "/factors/\(factorID)/verify", bearer: session.accessToken,
                body: [
                    "factor_id": factorID, "challenge_id": challengeID,
                    "webauthn": ["credential_response": Self.credentialResponse],
                ])
            guard case .registration(let asked)? = authenticator.asked.first, authenticator.asked.count == 1 else {
                Issue.record("expected one registration, got \(authenticator.asked)")
                return
            }
            #expect(asked.relyingPartyID == GoTrueState.relyingParty)
            #expect(asked.userName == SupabaseMFATests.email)
            guard case .session(let elevated) = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(GoTrueServer.claims(of: elevated.accessToken)?["aal"] as? String == "aal2")
            #expect(try await supabase.currentSession().accessToken == elevated.accessToken)
            #expect(harness.gotrue.factorStatus(factorID) == "verified")
            #expect(await nextEvent(events, within: .seconds(10)) == AuthEvent("mfa_challenge_verified"))
            #expect(await nextEvent(events, within: .milliseconds(300)) == nil, "one event, not one per step")
        }
    }

    @Test(
        "verifyWebAuthnFactor(factorId:authenticator:): a challenge, an assertion from its request options' rpId, verify with the credential response"
    )
    func verifyInOneCall() async throws {
        try await withSupabase { harness in
            let (supabase, _) = try await SupabaseMFATests.signedIn(harness)
            guard
                case .session = try await supabase.mfa.enrollWebAuthnFactor(
                    friendlyName: "Key", authenticator: FixedPasskeyAuthenticator())
            else { throw TestFailure("the enrolment did not sign in") }
            let factorID = try #require(harness.gotrue.factorIDs(ofType: "webauthn").first)
            let session = try await supabase.currentSession()
            harness.gotrue.resetRecording()
            let authenticator = FixedPasskeyAuthenticator()

            let result = try await supabase.mfa.verifyWebAuthnFactor(factorId: factorID, authenticator: authenticator)

            let requests = harness.gotrue.requests
            #expect(requests.count == 2)
            expectGoTrueRequest(
                requests.first, "POST", "/factors/\(factorID)/challenge", bearer: session.accessToken)
            let challengeID = try #require(harness.gotrue.challengeIDs(factorID: factorID).last)
            expectGoTrueRequest(
                requests.last, "POST", "/factors/\(factorID)/verify", bearer: session.accessToken,
                body: [
                    "factor_id": factorID, "challenge_id": challengeID,
                    "webauthn": [
                        "credential_response": FixedPasskeyAuthenticator.foundation(
                            FixedPasskeyAuthenticator.assertionJSON)
                    ],
                ])
            guard case .assertion(let asked)? = authenticator.asked.first, authenticator.asked.count == 1 else {
                Issue.record("expected one assertion, got \(authenticator.asked)")
                return
            }
            #expect(asked.relyingPartyID == GoTrueState.relyingParty)
            guard case .session(let verified) = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(try await supabase.currentSession().accessToken == verified.accessToken)
        }
    }

    @Test(
        "A cancelled registration sends no verify: the factor stays unverified, the session and events unchanged; a challenge without options asks no authenticator"
    )
    func cancelledOrMissingOptions() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await SupabaseMFATests.signedIn(harness)
            let events = supabase.client.events()
            let cancelling = FixedPasskeyAuthenticator(failure: AuthError(.loginCancelled, "The sheet was closed."))

            let error = await caughtAuthError {
                _ = try await supabase.mfa.enrollWebAuthnFactor(friendlyName: "Key", authenticator: cancelling)
            }
            #expect(error?.code == .loginCancelled)
            let requests = harness.gotrue.requests
            #expect(requests.map(\.method) == ["POST", "POST"])
            #expect(requests.first?.path == "/auth/v1/factors")
            #expect(requests.last?.path.hasSuffix("/challenge") == true)
            #expect(!requests.contains { $0.path.hasSuffix("/verify") })
            let factorID = try #require(harness.gotrue.factorIDs(ofType: "webauthn").first)
            #expect(harness.gotrue.factorStatus(factorID) == "unverified")
            #expect(try await supabase.currentSession().accessToken == session.accessToken)
            #expect(await nextEvent(events, within: .milliseconds(300)) == nil)

            // A TOTP factor's challenge has no WebAuthn options: invalid_response, no ceremony, no verify.
            let totp = try #require(try Self.document(try await supabase.mfa.enroll()).value(at: "/id")?.string)
            harness.gotrue.resetRecording()
            let authenticator = FixedPasskeyAuthenticator()
            let missing = await caughtAuthError {
                _ = try await supabase.mfa.verifyWebAuthnFactor(factorId: totp, authenticator: authenticator)
            }
            #expect(missing?.code == .invalidResponse)
            #expect(authenticator.asked.isEmpty)
            #expect(harness.gotrue.requests.map(\.path) == ["/auth/v1/factors/\(totp)/challenge"])
        }
    }
}
