import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// supabase-swift's identity calls (`userIdentities()`, `getLinkIdentityURL`, `linkIdentityWithIdToken`,
/// `unlinkIdentity` in its `Sources/Auth/AuthClient.swift`), generated from `supabase.json`, on the wire.
@Suite("Supabase: identities (list, link by browser or ID token, unlink)", timeLimit(minutes: 2))
struct SupabaseIdentityTests {
    static let email = "ada@example.com"
    static let password = "correct horse battery"

    /// A client signed in as Ada, with the recording reset.
    static func signedIn(_ harness: SupabaseHarness) async throws -> (SupabaseClient, Session) {
        try await harness.signedIn(email: email, password: password)
    }

    /// The identity ids of an action's `.document` array.
    static func identityIDs(_ result: ActionResult) -> [String]? {
        guard case .document(.array(let items)) = result else { return nil }
        return items.map { $0.value(at: "/identity_id")?.string ?? "" }
    }

    @Test(
        "userIdentities(): GET /user with the session's token returns its identities array; signed out, nothing is sent"
    )
    func listIdentities() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await Self.signedIn(harness)

            let result = try await supabase.userIdentities()

            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(harness.gotrue.requests.last, "GET", "/user", bearer: session.accessToken)
            #expect(Self.identityIDs(result) == harness.gotrue.identityIDs(of: Self.email))
            #expect(Self.identityIDs(result)?.count == 1)

            try await supabase.client.signOut(scope: "local")
            harness.gotrue.resetRecording()
            let signedOut = await caughtAuthError { _ = try await supabase.userIdentities() }
            #expect(signedOut?.code == .sessionMissing)
            #expect(harness.gotrue.requests.isEmpty)
        }
    }

    @Test(
        "getLinkIdentityURL: GET /user/identities/authorize with provider, scopes, redirect_to, an S256 challenge, skip_http_redirect and the bearer; the callback's code is exchanged"
    )
    func linkByBrowser() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await Self.signedIn(harness)

            let result = try await supabase.getLinkIdentityURL(provider: .google, scopes: "email profile")

            #expect(harness.gotrue.requests.count == 1)
            let authorize = try #require(harness.gotrue.requests.last)
            let challenge = authorize.query("code_challenge") ?? ""
            expectGoTrueRequest(
                authorize, "GET", "/user/identities/authorize",
                query: [
                    "provider": "google", "scopes": "email profile",
                    "redirect_to": SupabaseAppURLs.callback.absoluteString,
                    "code_challenge": challenge, "code_challenge_method": "s256", "skip_http_redirect": "true",
                ],
                bearer: session.accessToken)
            #expect(challenge.count == 43)
            guard case .document(.string(let text)) = result, let url = URL(string: text) else {
                Issue.record("expected the URL to open, got \(result)")
                return
            }
            #expect(try await harness.storedPending()?.count == 1)

            let callback = try #require(harness.gotrue.consent(at: url, as: "ada.personal@gmail.com"))
            harness.gotrue.resetRecording()
            let events = supabase.client.events()
            let linked = try await supabase.client.handleCallback(callback)
            #expect(await nextEvent(events) == .userUpdated, "the link's pkce event")

            #expect(harness.gotrue.requests.count == 1)
            let exchange = harness.gotrue.requests.last
            let verifier = (exchange?.jsonBody as? [String: Any])?["code_verifier"] as? String ?? ""
            #expect(PKCE.challenge(for: verifier) == challenge)
            expectGoTrueRequest(
                exchange, "POST", "/token", query: ["grant_type": "pkce"],
                body: ["auth_code": callback.supabaseQueryItems["code"] ?? "", "code_verifier": verifier])
            #expect(linked.user?.id == session.user?.id, "the same user, now with a second identity")
            #expect(harness.gotrue.identityIDs(of: Self.email).count == 2)
            #expect(try await harness.storedPending() == nil)
        }
    }

    @Test(
        "linkIdentityWithIdToken: POST /token?grant_type=id_token with link_identity and the bearer; the new session is stored"
    )
    func linkWithIDToken() async throws {
        try await withSupabase { harness in
            let (supabase, session) = try await Self.signedIn(harness)
            let idToken = GoTrueServer.idToken(provider: "google", sub: "1098765", email: "ada@gmail.com", nonce: nil)

            let result = try await supabase.linkIdentityWithIdToken(
                provider: .google, idToken: idToken, providerAccessToken: "ya29.google")

            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/token", query: ["grant_type": "id_token"],
                bearer: session.accessToken,
                body: ["provider": "google", "id_token": idToken, "access_token": "ya29.google", "link_identity": true])
            guard case .session(let linked) = result else {
                Issue.record("expected a session, got \(result)")
                return
            }
            #expect(linked.user?.id == session.user?.id)
            #expect(linked.accessToken != session.accessToken)
            #expect(try await harness.storedSession()?["accessToken"] as? String == linked.accessToken)
            #expect(harness.gotrue.identityIDs(of: Self.email).count == 2)
        }
    }

    @Test(
        "unlinkIdentity(identityId:): DELETE /user/identities/{id} with the bearer and no body; GoTrue's refusals keep the session; a path-breaking id sends nothing"
    )
    func unlink() async throws {
        try await withSupabase { harness in
            let (supabase, _) = try await Self.signedIn(harness)
            let idToken = GoTrueServer.idToken(provider: "google", sub: "1098765", email: "ada@gmail.com", nonce: nil)
            guard
                case .session(let session) = try await supabase.linkIdentityWithIdToken(
                    provider: .google, idToken: idToken)
            else {
                Issue.record("expected a session")
                return
            }
            let ids = harness.gotrue.identityIDs(of: Self.email)
            #expect(ids.count == 2)
            harness.gotrue.resetRecording()

            let result = try await supabase.unlinkIdentity(identityId: ids[1])

            #expect(result == .none)
            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(
                harness.gotrue.requests.last, "DELETE", "/user/identities/" + ids[1], bearer: session.accessToken)
            #expect(harness.gotrue.identityIDs(of: Self.email) == [ids[0]])

            let last = await caughtAuthError { _ = try await supabase.unlinkIdentity(identityId: ids[0]) }
            #expect(last?.providerCode == "single_identity_not_deletable")
            #expect(supabase.client.state.isSignedIn, "a refusal keeps the session")

            harness.gotrue.resetRecording()
            for bad in ["../admin/users", "..", "a b", "id?x=1", ""] {
                let error = await caughtAuthError { _ = try await supabase.unlinkIdentity(identityId: bad) }
                #expect(error?.code == .validationFailed, "\(bad)")
            }
            #expect(harness.gotrue.requests.isEmpty)
        }
    }
}
