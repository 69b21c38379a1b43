import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// `client.mfa`, generated from supabase.json's `mfa` action group, on the wire as supabase-swift's
/// `Sources/Auth/AuthMFA.swift` sends it.
@Suite("Supabase: MFA sub-client", timeLimit(minutes: 2))
struct SupabaseMFATests {
    static let email = "ada@example.com"
    static let password = "lovelace-1815"
    static let phone = "+15555550142"

    /// A signed-in client and its session.
    static func signedIn(_ harness: SupabaseHarness) async throws -> (SupabaseClient, Session) {
        try await harness.signedIn(email: email, password: password)
    }

    static func document(_ result: ActionResult) throws -> JSON {
        guard case .document(let document) = result else { throw TestFailure("expected a document, got \(result)") }
        return document
    }

    @Test("enroll(issuer:friendlyName:) POSTs a TOTP factor with the bearer; enroll() sends factor_type alone")
    func enrollTOTP() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await Self.signedIn(harness)
            let answer = try Self.document(
                try await supabase.mfa.enroll(issuer: "example.com", friendlyName: "Authenticator"))
            expectGoTrueRequest(
                harness.gotrue.requests.first, "POST", "/factors", bearer: session.accessToken,
                body: ["factor_type": "totp", "issuer": "example.com", "friendly_name": "Authenticator"])
            #expect(answer.value(at: "/type") == .string("totp"))
            #expect(answer.value(at: "/totp/uri")?.string?.hasPrefix("otpauth://totp/example.com") == true)

            _ = try await supabase.mfa.enroll()
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/factors", bearer: session.accessToken,
                body: ["factor_type": "totp"])
            #expect(harness.gotrue.requests.count == 2)
        }
    }

    @Test("Phone factor: enroll(phone:), challenge(factorId:channel:), verify installs the aal2 session")
    func phoneFactor() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await Self.signedIn(harness)
            let events = supabase.client.events()
            let enrolled = try Self.document(try await supabase.mfa.enroll(phone: Self.phone))
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/factors", bearer: session.accessToken,
                body: ["factor_type": "phone", "phone": Self.phone])
            let factorID = try #require(enrolled.value(at: "/id")?.string)

            let challenge = try Self.document(try await supabase.mfa.challenge(factorId: factorID, channel: .whatsapp))
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/factors/\(factorID)/challenge", bearer: session.accessToken,
                body: ["channel": "whatsapp"])
            let challengeID = try #require(challenge.value(at: "/id")?.string)
            let message = try #require(harness.gotrue.messages.last)
            #expect(message.channel == "whatsapp" && message.to == Self.phone)

            let result = try await supabase.mfa.verify(
                factorId: factorID, challengeId: challengeID, code: message.token)
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/factors/\(factorID)/verify", bearer: session.accessToken,
                body: ["factor_id": factorID, "challenge_id": challengeID, "code": message.token])
            guard case .session(let elevated) = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(elevated.accessToken != session.accessToken)
            #expect(GoTrueServer.claims(of: elevated.accessToken)?["aal"] as? String == "aal2")
            #expect(try await supabase.currentSession().accessToken == elevated.accessToken)
            #expect(try await harness.storedSession()?["accessToken"] as? String == elevated.accessToken)
            #expect(await nextEvent(events, within: .seconds(10)) == AuthEvent("mfa_challenge_verified"))
            #expect(harness.gotrue.factorStatus(factorID) == "verified")
            #expect(harness.gotrue.requests.count == 3)
        }
    }

    @Test("challengeAndVerify: a challenge with no body (as supabase-swift), then verify with its id; one event")
    func challengeAndVerify() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await Self.signedIn(harness)
            let factorID = try #require(try Self.document(try await supabase.mfa.enroll()).value(at: "/id")?.string)
            let code = try #require(harness.gotrue.totpCode(factorID: factorID))
            harness.gotrue.resetRecording()
            let events = supabase.client.events()

            let result = try await supabase.mfa.challengeAndVerify(factorId: factorID, code: code)
            let requests = harness.gotrue.requests
            #expect(requests.count == 2)
            expectGoTrueRequest(
                requests.first, "POST", "/factors/\(factorID)/challenge", bearer: session.accessToken)
            let challengeID = try #require(
                (try? JSONSerialization.jsonObject(with: harness.gotrue.requests.last?.body ?? Data()))
                    .flatMap { ($0 as? [String: Any])?["challenge_id"] as? String })
            expectGoTrueRequest(
                requests.last, "POST", "/factors/\(factorID)/verify", bearer: session.accessToken,
                body: ["factor_id": factorID, "challenge_id": challengeID, "code": code])
            guard case .session(let elevated) = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(try await supabase.currentSession().accessToken == elevated.accessToken)
            #expect(await nextEvent(events, within: .seconds(10)) == AuthEvent("mfa_challenge_verified"))
            #expect(await nextEvent(events, within: .milliseconds(300)) == nil, "one event, not one per step")
        }
    }

    @Test("A wrong code is mfa_required; the session stays and no event is published")
    func wrongCode() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await Self.signedIn(harness)
            let factorID = try #require(try Self.document(try await supabase.mfa.enroll()).value(at: "/id")?.string)
            let events = supabase.client.events()
            let error = await caughtAuthError {
                _ = try await supabase.mfa.challengeAndVerify(factorId: factorID, code: "000000x")
            }
            #expect(error?.code == AuthError.Code("mfa_required"))
            #expect(try await supabase.currentSession().accessToken == session.accessToken)
            #expect(await nextEvent(events, within: .milliseconds(300)) == nil)
            #expect(harness.gotrue.factorStatus(factorID) == "unverified")
        }
    }

    @Test("listFactors is GET /user with the bearer; unenroll is DELETE /factors/{id} with no body")
    func listAndUnenroll() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await Self.signedIn(harness)
            let factorID = try #require(
                try Self.document(try await supabase.mfa.enroll(phone: Self.phone, friendlyName: "Work phone"))
                    .value(at: "/id")?.string)
            harness.gotrue.resetRecording()

            let listed = try await supabase.mfa.listFactors()
            expectGoTrueRequest(harness.gotrue.requests.last, "GET", "/user", bearer: session.accessToken)
            guard case .user(let user) = listed else {
                Issue.record("expected a user, got \(listed)")
                return
            }
            #expect(user.attributes.value(at: "/factors/0/id") == .string(factorID))
            #expect(user.attributes.value(at: "/factors/0/friendly_name") == .string("Work phone"))
            #expect(user.attributes.value(at: "/factors/0/status") == .string("unverified"))

            let removed = try Self.document(try await supabase.mfa.unenroll(factorId: factorID))
            expectGoTrueRequest(
                harness.gotrue.requests.last, "DELETE", "/factors/\(factorID)", bearer: session.accessToken)
            #expect(removed.value(at: "/id") == .string(factorID))
            #expect(harness.gotrue.factorStatus(factorID) == nil)
            #expect(harness.gotrue.requests.count == 2)
        }
    }

    @Test("Arguments that would leave the path, empty ids, unknown channels and a signed-out client send nothing")
    func invalidArgumentsSendNothing() async throws {
        try await withSupabase { harness in
            let (supabase, _) = try await Self.signedIn(harness)
            for factorID in ["../user", "a/b", "x?y=1", "a#b", "..", "", "f%2F"] {
                let error = await caughtAuthError { _ = try await supabase.mfa.unenroll(factorId: factorID) }
                #expect(error?.code == .validationFailed, "factorId \(factorID)")
                let verify = await caughtAuthError {
                    _ = try await supabase.mfa.verify(factorId: factorID, challengeId: "c", code: "1")
                }
                #expect(verify?.code == .validationFailed, "factorId \(factorID)")
            }
            // The generated method takes the channel's enum; the runtime still checks a string given to
            // perform(action:arguments:) against the descriptor's values.
            let channel = await caughtAuthError {
                _ = try await supabase.client.perform(
                    action: "mfaChallenge", arguments: ["factorId": .string("f"), "channel": .string("pigeon")])
            }
            #expect(channel?.code == .validationFailed)
            let emptyCode = await caughtAuthError {
                _ = try await supabase.mfa.challengeAndVerify(factorId: "f", code: "")
            }
            #expect(emptyCode?.code == .validationFailed)
            #expect(harness.gotrue.requests.isEmpty)

            try await supabase.signOut(scope: .local)
            harness.gotrue.resetRecording()
            let signedOut = await caughtAuthError { _ = try await supabase.mfa.enroll() }
            #expect(signedOut?.code == .sessionMissing)
            #expect(harness.gotrue.requests.isEmpty)
        }
    }
}

/// A failed expectation outside `#require`.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
