import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The HTTP half of passkeys, generated from supabase.json, on the wire as supabase-swift's
/// `Sources/Auth/WebAuthn/AuthClient+Passkey.swift` sends it (the ceremony itself is the platform's).
@Suite("Supabase: passkeys over HTTP", timeLimit(minutes: 2))
struct SupabasePasskeyTests {
    static let email = "ada@example.com"
    static let password = "lovelace-1815"
    static let credential: [String: JSON] = [
        "id": .string("cred-1"), "rawId": .string("cred-1"), "type": .string("public-key"),
        "response": .object(["clientDataJSON": .string("e30"), "attestationObject": .string("o2Nm")]),
    ]

    static func document(_ result: ActionResult) throws -> JSON {
        guard case .document(let document) = result else { throw TestFailure("expected a document, got \(result)") }
        return document
    }

    @Test("Register, list, rename and delete: paths, bearer, W3C names sent as they are")
    func registerAndManage() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            let supabase = try harness.makeClient()
            let session = try await supabase.signIn(email: Self.email, password: Self.password)
            harness.gotrue.resetRecording()

            let options = try Self.document(try await supabase.getPasskeyRegistrationOptions())
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/passkeys/registration/options", bearer: session.accessToken)
            let challengeID = try #require(options.value(at: "/challenge_id")?.string)

            let stored = try Self.document(
                try await supabase.verifyPasskeyRegistration(challengeId: challengeID, credential: Self.credential))
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/passkeys/registration/verify", bearer: session.accessToken,
                body: [
                    "challenge_id": challengeID,
                    "credential": [
                        "id": "cred-1", "rawId": "cred-1", "type": "public-key",
                        "response": ["clientDataJSON": "e30", "attestationObject": "o2Nm"],
                    ],
                ])
            let passkeyID = try #require(stored.value(at: "/id")?.string)

            let listed = try Self.document(try await supabase.listPasskeys())
            expectGoTrueRequest(harness.gotrue.requests.last, "GET", "/passkeys/", bearer: session.accessToken)
            #expect(listed.value(at: "/0/id") == .string(passkeyID))

            let renamed = try Self.document(try await supabase.renamePasskey(passkeyId: passkeyID, friendlyName: "Mac"))
            expectGoTrueRequest(
                harness.gotrue.requests.last, "PATCH", "/passkeys/\(passkeyID)", bearer: session.accessToken,
                body: ["friendly_name": "Mac"])
            #expect(renamed.value(at: "/friendly_name") == .string("Mac"))

            let deleted = try await supabase.deletePasskey(passkeyId: passkeyID)
            expectGoTrueRequest(
                harness.gotrue.requests.last, "DELETE", "/passkeys/\(passkeyID)", bearer: session.accessToken)
            #expect(deleted == .none)
            #expect(harness.gotrue.requests.count == 5)
        }
    }

    @Test("Sign in with a passkey: options and verify without a bearer; the session is installed")
    func signIn() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            let registering = try harness.makeClient(store: InMemorySessionStore())
            _ = try await registering.signIn(email: Self.email, password: Self.password)
            let registration = try Self.document(try await registering.getPasskeyRegistrationOptions())
            _ = try await registering.verifyPasskeyRegistration(
                challengeId: try #require(registration.value(at: "/challenge_id")?.string), credential: Self.credential)
            harness.gotrue.resetRecording()

            let supabase = try harness.makeClient()
            let options = try Self.document(try await supabase.getPasskeyAuthenticationOptions())
            expectGoTrueRequest(harness.gotrue.requests.last, "POST", "/passkeys/authentication/options")
            let challengeID = try #require(options.value(at: "/challenge_id")?.string)
            let result = try await supabase.verifyPasskeyAuthentication(
                challengeId: challengeID, credential: ["id": .string("cred-1"), "type": .string("public-key")])
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/passkeys/authentication/verify",
                body: ["challenge_id": challengeID, "credential": ["id": "cred-1", "type": "public-key"]])
            guard case .session(let session) = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(session.user?.email == Self.email)
            #expect(try await harness.storedSession()?["accessToken"] as? String == session.accessToken)
        }
    }

    @Test("A passkey id that would leave the path, or an empty name, sends nothing")
    func invalidArgumentsSendNothing() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            let supabase = try harness.makeClient()
            _ = try await supabase.signIn(email: Self.email, password: Self.password)
            harness.gotrue.resetRecording()
            for id in ["../user", "a/b", "x?y", ""] {
                let delete = await caughtAuthError { _ = try await supabase.deletePasskey(passkeyId: id) }
                #expect(delete?.code == .validationFailed, "id \(id)")
            }
            let rename = await caughtAuthError {
                _ = try await supabase.renamePasskey(passkeyId: "p", friendlyName: "")
            }
            #expect(rename?.code == .validationFailed)
            #expect(harness.gotrue.requests.isEmpty)
        }
    }
}
