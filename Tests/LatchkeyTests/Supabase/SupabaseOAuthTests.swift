import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Collects a ``CallbackRouter``'s outcomes.
final class RoutedResults: Sendable {
    private let results = Locked<[Result<Session, AuthError>]>([])

    var all: [Result<Session, AuthError>] { results.withLock { $0 } }

    func record(_ result: Result<Session, AuthError>) {
        results.withLock { $0.append(result) }
    }
}

@Suite("Supabase: OAuth with PKCE, callbacks, routing and cold start")
struct SupabaseOAuthTests {
    /// Prepares a Google sign-in and plays the browser up to the app's callback.
    static func browserSignIn(
        _ supabase: SupabaseClient, harness: SupabaseHarness
    ) async throws -> (request: AuthorizationRequest, callback: URL) {
        let request = try await supabase.client.prepareAuthorization(
            redirectURI: SupabaseAppURLs.callback, additionalParameters: ["provider": "google"])
        let callback = try await HeadlessUserAgent().follow(request.url, until: SupabaseAppURLs.callback)
        return (request, callback)
    }

    @Test("OAuth with PKCE: /authorize carries provider, redirect_to and an S256 challenge; the code is exchanged")
    func pkceSignIn() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let request = try await supabase.client.prepareAuthorization(
                redirectURI: SupabaseAppURLs.callback, additionalParameters: ["provider": "google"])

            let url = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
            #expect(url.scheme == "http")
            #expect(url.host == "127.0.0.1")
            #expect(url.port == harness.gotrue.projectURL.port)
            #expect(url.path == "/auth/v1/authorize")
            let challenge = try #require(request.url.supabaseQueryItems["code_challenge"])
            #expect(
                request.url.supabaseQueryItems == [
                    "provider": "google", "redirect_to": SupabaseAppURLs.callback.absoluteString,
                    "code_challenge": challenge, "code_challenge_method": "s256",
                ])
            #expect(url.queryItems?.count == 4, "no state and no other parameter")
            #expect(url.queryItems?.first?.name == "provider", "provider fills its declared place")
            #expect(challenge.count == 43)
            #expect(harness.gotrue.requests.isEmpty, "preparing sends nothing")
            #expect(try await harness.storedPending()?.count == 1)

            let callback = try await HeadlessUserAgent().follow(request.url, until: SupabaseAppURLs.callback)
            let authorize = try #require(harness.gotrue.requests("/authorize").first)
            #expect(authorize.method == "GET")
            #expect(authorize.query("code_challenge") == challenge)
            #expect(callback.scheme == "dev.example.app")
            #expect(callback.host == "auth-callback")
            #expect(callback.fragment == nil)
            let code = try #require(callback.supabaseQueryItems["code"])
            #expect(Array(callback.supabaseQueryItems.keys) == ["code"], "Supabase returns no state")

            harness.gotrue.resetRecording()
            let session = try await supabase.client.handleCallback(callback)

            #expect(harness.gotrue.requests.count == 1)
            let exchange = harness.gotrue.requests.first
            let verifier = (exchange?.jsonBody as? [String: Any])?["code_verifier"] as? String ?? ""
            #expect(PKCE.challenge(for: verifier) == challenge)
            expectGoTrueRequest(
                exchange, "POST", "/token", query: ["grant_type": "pkce"],
                body: ["auth_code": code, "code_verifier": verifier])
            #expect(session.user?.email == "ada@example.com")
            #expect(session.user?.name == "Ada Lovelace")
            #expect(supabase.client.state == .signedIn(session.user!))
            #expect(try await harness.storedPending() == nil)
            #expect(try await harness.storedSession()?["accessToken"] as? String == session.accessToken)

            let replay = await caughtAuthError { _ = try await supabase.client.handleCallback(callback) }
            #expect(replay?.code == .invalidCallback)
            #expect(harness.gotrue.requests.count == 1, "a replayed callback reaches nothing")
        }
    }

    @Test("An additional parameter cannot replace one the sign-in sets")
    func additionalParameterClash() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let error = await caughtAuthError {
                _ = try await supabase.client.prepareAuthorization(
                    redirectURI: SupabaseAppURLs.callback,
                    additionalParameters: ["provider": "google", "code_challenge": "attacker-chosen-challenge"])
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(try await harness.storedPending() == nil)
        }
    }

    enum Cancellation: String, CaseIterable, Sendable {
        /// The provider's cancel as GoTrue relays it: the error in the query and the fragment, no error_code.
        case browser
        case query
        case fragment
        /// Older GoTrue put the HTTP status in error_code.
        case queryWithNumericErrorCode
        case fragmentWithErrorCode

        func url(callback: URL) -> URL {
            let base = SupabaseAppURLs.callback.absoluteString
            switch self {
            case .browser: return callback
            case .query: return URL(string: base + "?error=access_denied&error_description=The+user+denied+access")!
            case .fragment:
                return URL(string: base + "#error=access_denied&error_description=The%20user%20denied%20access&sb=")!
            case .queryWithNumericErrorCode:
                return URL(string: base + "?error=access_denied&error_code=403&error_description=Access+denied")!
            case .fragmentWithErrorCode:
                return URL(
                    string: base + "#error=access_denied&error_code=access_denied&error_description=Cancelled&sb=")!
            }
        }
    }

    @Test("A cancelled sign-in is login_cancelled and sends no token request", arguments: Cancellation.allCases)
    func cancellation(_ shape: Cancellation) async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            harness.gotrue.setProviderDecision(.cancel)
            let (_, callback) = try await Self.browserSignIn(supabase, harness: harness)
            if shape == .browser {
                #expect(callback.supabaseQueryItems["error"] == "access_denied")
                #expect(callback.fragment?.contains("error=access_denied") == true)
                #expect(callback.supabaseQueryItems["error_code"] == nil)
            }

            let error = await caughtAuthError {
                _ = try await supabase.client.handleCallback(shape.url(callback: callback))
            }

            #expect(error?.code == .loginCancelled)
            #expect(error?.kind == .cancelled)
            #expect(harness.gotrue.requests("/token").isEmpty)
            #expect(supabase.client.state == .signedOut)
            #expect(try await harness.storedSession() == nil)
            // GoTrue echoes no state, so nothing proves that an error came from it: the sign-in stays pending
            // (until its lifetime ends), and a forged `?error=access_denied` cannot end it.
            #expect(try await harness.storedPending()?.count == 1)
        }
    }

    @Test("Callback routing: only the exact scheme, host, port and path reach the client")
    func routing() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let (request, callback) = try await Self.browserSignIn(supabase, harness: harness)
            let code = try #require(callback.supabaseQueryItems["code"])
            let results = RoutedResults()
            let router = CallbackRouter(clients: [supabase.client]) { _, result in results.record(result) }
            harness.gotrue.resetRecording()

            let unrelated = [
                "dev.example.app://other-host?code=\(code)",
                "dev.example.appx://auth-callback?code=\(code)",
                "dev.example.ap://auth-callback?code=\(code)",
                "other.app://auth-callback?code=\(code)",
                "https://auth-callback/?code=\(code)",
                "dev.example.app://auth-callback.evil.example?code=\(code)",
                "dev.example.app://auth-callback/extra?code=\(code)",
                "dev.example.app://auth-callback:8443?code=\(code)",
                "dev.example.app://mallory@auth-callback?code=\(code)",
                "dev.example.app:auth-callback?code=\(code)",
            ]
            for text in unrelated {
                let url = try #require(URL(string: text))
                #expect(await router.handle(url) == false, "\(text)")
                #expect(await supabase.client.canHandle(url) == false, "\(text)")
            }
            #expect(results.all.isEmpty)
            #expect(harness.gotrue.requests.isEmpty, "unrelated URLs reach nothing")
            #expect(try await harness.storedPending()?.first?["state"] as? String == request.state)

            #expect(await router.handle(callback))
            #expect(results.all.count == 1)
            let session = try results.all[0].get()
            #expect(session.user?.email == "ada@example.com")
            #expect(harness.gotrue.requests("/token").count == 1)
            #expect(await router.handle(callback) == false, "a used callback is unrelated afterwards")
        }
    }

    @Test("Cold start: a callback delivered to a new client after a restart completes the pending sign-in")
    func coldStart() async throws {
        try await withSupabase { harness in
            var challenge = ""
            var callback = URL(string: "about:blank")!
            do {
                let beforeRestart = try harness.makeClient()
                let (request, url) = try await Self.browserSignIn(beforeRestart, harness: harness)
                challenge = request.url.supabaseQueryItems["code_challenge"] ?? ""
                callback = url
            }
            #expect(try await harness.storedPending()?.count == 1)

            let relaunched = try harness.makeClient()
            let results = RoutedResults()
            let router = CallbackRouter(clients: [relaunched.client]) { _, result in results.record(result) }
            #expect(await router.handle(callback))

            let session = try #require(try results.all.first?.get())
            #expect(session.user?.email == "ada@example.com")
            #expect(relaunched.client.state.isSignedIn)
            let exchange = harness.gotrue.requests("/token").first
            let verifier = (exchange?.jsonBody as? [String: Any])?["code_verifier"] as? String ?? ""
            #expect(PKCE.challenge(for: verifier) == challenge)
            #expect(try await harness.storedPending() == nil)
            #expect(try await harness.storedSession() != nil)
        }
    }

    @Test("An exchange after the flow state's 5 minutes is flow_state_expired")
    func flowStateExpired() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let (_, callback) = try await Self.browserSignIn(supabase, harness: harness)
            harness.gotrue.advanceClock(by: 301)

            let error = await caughtAuthError { _ = try await supabase.client.handleCallback(callback) }

            #expect(error?.code == "flow_state_expired")
            #expect(error?.kind == .rejected)
            #expect(error?.status == 422)
            #expect(harness.gotrue.requests("/token").count == 1)
            #expect(supabase.client.state == .signedOut)
        }
    }

    @Test("A verifier that does not hash to the challenge is bad_code_verifier")
    func badVerifier() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let (_, callback) = try await Self.browserSignIn(supabase, harness: harness)
            // Another verifier in the persisted pending sign-in.
            let data = try #require(try await harness.store.load(key: supabase.client.storeKey + ".pending"))
            var envelope = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            var pending = try #require(envelope["pending"] as? [[String: Any]])
            pending[0]["codeVerifier"] = PKCE.makeVerifier()
            envelope["pending"] = pending
            try await harness.store.save(
                try JSONSerialization.data(withJSONObject: envelope), key: supabase.client.storeKey + ".pending")

            let error = await caughtAuthError { _ = try await supabase.client.handleCallback(callback) }

            #expect(error?.code == "bad_code_verifier")
            #expect(error?.kind == .rejected)
            #expect(error?.status == 400)
            #expect(supabase.client.state == .signedOut)
        }
    }
}
