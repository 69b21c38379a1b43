import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Supabase: emailed links with the session in the fragment (implicit)", timeLimit(minutes: 2))
struct SupabaseImplicitLinkTests {
    static let email = "ada@example.com"
    static let password = "correct-horse"

    @Test("A confirmation link's fragment session is consumed: one GET /user with its token, nothing else")
    func confirmationLink() async throws {
        try await withSupabase(autoconfirm: false) { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password, confirmed: false)
            harness.gotrue.sendImplicitLink(to: Self.email, type: "signup", redirectTo: SupabaseAppURLs.callback)
            let mail = try #require(harness.gotrue.outbox.last)
            let link = try await HeadlessUserAgent().follow(mail.link, until: SupabaseAppURLs.callback)
            let fragment = fragmentItems(link)
            let accessToken = try #require(fragment["access_token"])
            let refreshToken = try #require(fragment["refresh_token"])
            #expect(fragment["type"] == "signup")
            harness.gotrue.resetRecording()

            // A cold start: a client that never started a sign-in takes the link.
            let logs = LogCollector()
            let supabase = try harness.makeClient(redirectURIs: [:], logger: logs.logger)
            let events = supabase.client.events()
            let results = RoutedResults()
            let router = CallbackRouter(clients: [supabase.client]) { _, result in results.record(result) }
            #expect(await supabase.client.canHandle(link))
            #expect(await router.handle(link))

            let session = try #require(try results.all.first?.get())
            #expect(harness.gotrue.requests.count == 1, "only GET /user may be sent")
            expectGoTrueRequest(harness.gotrue.requests.first, "GET", "/user", bearer: accessToken)
            #expect(session.accessToken == accessToken)
            #expect(session.refreshToken == refreshToken)
            #expect(session.user?.email == Self.email)
            #expect(session.user?.attributes.object?["email_confirmed_at"]?.string != nil, "the user is GoTrue's")
            #expect(supabase.client.state.isSignedIn)
            let stored = try #require(try await harness.storedSession())
            #expect(stored["refreshToken"] as? String == refreshToken)
            #expect(
                await nextEvent(events, within: .milliseconds(300)) == nil, "a sign-up link publishes no recovery event"
            )
            #expect(!logs.all.isEmpty)
            for record in logs.all {
                #expect(!record.message.contains(accessToken) && !record.message.contains(refreshToken))
            }

            // The fresh session works: a refresh rotates the fragment's refresh token.
            let refreshed = try await supabase.currentSession(forceRefresh: true)
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/token", query: ["grant_type": "refresh_token"],
                body: ["refresh_token": refreshToken])
            #expect(refreshed.refreshToken != refreshToken)
        }
    }

    @Test("A recovery link on the recovery redirect signs in and publishes password_recovery")
    func recoveryLink() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            harness.gotrue.sendImplicitLink(to: Self.email, type: "recovery", redirectTo: SupabaseAppURLs.recovery)
            let mail = try #require(harness.gotrue.outbox.last)
            let link = try await HeadlessUserAgent().follow(mail.link, until: SupabaseAppURLs.recovery)
            let accessToken = try #require(fragmentItems(link)["access_token"])
            harness.gotrue.resetRecording()
            let supabase = try harness.makeClient(redirectURIs: ["recovery": SupabaseAppURLs.recovery])
            let events = supabase.client.events()

            let session = try await supabase.client.handleCallback(link)

            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(harness.gotrue.requests.first, "GET", "/user", bearer: accessToken)
            #expect(session.user?.email == Self.email)
            #expect(await nextEvent(events) == .passwordRecovery)
            #expect(supabase.client.state.isSignedIn)

            // The recovery session sets the new password with its own access token.
            _ = try await supabase.updatePassword(password: "battery-staple")
            expectGoTrueRequest(
                harness.gotrue.requests.last, "PUT", "/user", bearer: accessToken,
                body: ["password": "battery-staple"])
        }
    }

    @Test("A magic link opened twice: the second time is otp_expired from the fragment, with zero requests")
    func usedLinkError() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            harness.gotrue.sendImplicitLink(to: Self.email, type: "magiclink", redirectTo: SupabaseAppURLs.callback)
            let mail = try #require(harness.gotrue.outbox.last)
            _ = try await HeadlessUserAgent().follow(mail.link, until: SupabaseAppURLs.callback)
            let failed = try await HeadlessUserAgent().follow(mail.link, until: SupabaseAppURLs.callback)
            #expect(fragmentItems(failed)["error_code"] == "otp_expired")
            #expect(failed.supabaseQueryItems.isEmpty, "an implicit error is in the fragment only")
            harness.gotrue.resetRecording()
            let supabase = try harness.makeClient()

            #expect(await supabase.client.canHandle(failed))
            let error = await caughtAuthError { _ = try await supabase.client.handleCallback(failed) }

            #expect(error?.code == "otp_expired")
            #expect(error?.kind == .rejected)
            #expect(error?.providerCode == "otp_expired")
            #expect(harness.gotrue.requests.isEmpty)
            #expect(supabase.client.state == .signedOut)
            #expect(try await harness.storeIsEmpty())
        }
    }

    @Test(
        "Fragment errors map to stable codes with zero requests",
        arguments: [
            ("error=access_denied&error_description=The+user+denied+access&sb=", "login_cancelled"),
            (
                "error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired",
                "otp_expired"
            ),
            ("error=server_error&error_description=Unexpected+failure", "server_error"),
        ])
    func fragmentErrors(fragment: String, code: String) async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let url = URL(string: SupabaseAppURLs.callback.absoluteString + "#" + fragment)!
            let results = RoutedResults()
            let router = CallbackRouter(clients: [supabase.client]) { _, result in results.record(result) }

            #expect(await router.handle(url))

            guard case .failure(let error)? = results.all.first else {
                Issue.record("expected a failure, got \(results.all)")
                return
            }
            #expect(error.code.rawValue == code)
            #expect(harness.gotrue.requests.isEmpty)
            #expect(supabase.client.state == .signedOut)
        }
    }

    @Test("Refused with zero requests: another redirect URI, a token in the query, a replayed link")
    func refusals() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            harness.gotrue.sendImplicitLink(to: Self.email, type: "magiclink", redirectTo: SupabaseAppURLs.callback)
            let mail = try #require(harness.gotrue.outbox.last)
            let link = try await HeadlessUserAgent().follow(mail.link, until: SupabaseAppURLs.callback)
            let fragment = try #require(
                URLComponents(url: link, resolvingAgainstBaseURL: false)?.percentEncodedFragment)
            let tokens = [fragmentItems(link)["access_token"] ?? "", fragmentItems(link)["refresh_token"] ?? ""]
            harness.gotrue.resetRecording()
            let supabase = try harness.makeClient()

            // The recovery path is not configured on this client: no redirect URI of it accepts the fragment.
            let elsewhere = URL(string: SupabaseAppURLs.recovery.absoluteString + "#" + fragment)!
            #expect(!(await supabase.client.canHandle(elsewhere)))
            let router = CallbackRouter(clients: [supabase.client])
            #expect(!(await router.handle(elsewhere)))
            let refused = await caughtAuthError { _ = try await supabase.client.handleCallback(elsewhere) }
            #expect(refused?.code == .invalidCallback)
            expectNoSecrets(refused, tokens)

            // Exact scheme, host, port and path: look-alikes of the configured redirect URI reach nothing.
            for text in [
                "dev.example.appx://auth-callback", "dev.example.app://auth-callback.evil.example",
                "dev.example.app://auth-callback/extra", "dev.example.app://auth-callback:8443",
                "https://auth-callback/",
            ] {
                let lookalike = URL(string: text + "#" + fragment)!
                #expect(!(await supabase.client.canHandle(lookalike)), "\(text)")
                #expect(!(await router.handle(lookalike)), "\(text)")
            }

            let inQuery = URL(string: SupabaseAppURLs.callback.absoluteString + "?" + fragment + "#" + fragment)!
            let query = await caughtAuthError { _ = try await supabase.client.handleCallback(inQuery) }
            #expect(query?.code == .invalidCallback)
            expectNoSecrets(query, tokens)
            #expect(harness.gotrue.requests.isEmpty)

            _ = try await supabase.client.handleCallback(link)
            #expect(harness.gotrue.requests.count == 1)
            let replay = await caughtAuthError { _ = try await supabase.client.handleCallback(link) }
            #expect(replay?.code == .invalidCallback)
            expectNoSecrets(replay, tokens)
            #expect(harness.gotrue.requests.count == 1, "a replayed link sends nothing")
        }
    }

    @Test("A fragment token GoTrue refuses on GET /user: session_expired, nothing stored, no token in the error")
    func refusedToken() async throws {
        try await withSupabase { harness in
            let logs = LogCollector()
            let supabase = try harness.makeClient(redirectURIs: [:], logger: logs.logger)
            let forged = GoTrueServer.jwt(["sub": "someone", "exp": Int(Date().timeIntervalSince1970) + 3600])
            let refresh = "forgedrefresh"
            let url = URL(
                string: SupabaseAppURLs.callback.absoluteString + "#access_token=\(forged)&expires_in=3600"
                    + "&refresh_token=\(refresh)&token_type=bearer&type=magiclink")!

            let error = await caughtAuthError { _ = try await supabase.client.handleCallback(url) }

            #expect(error?.code == .sessionExpired)
            #expect(error?.providerCode == "bad_jwt")
            expectNoSecrets(error, [forged, refresh])
            #expect(logs.all.allSatisfy { !$0.message.contains(forged) && !$0.message.contains(refresh) })
            #expect(harness.gotrue.requests.count == 1)
            expectGoTrueRequest(harness.gotrue.requests.first, "GET", "/user", bearer: forged)
            #expect(supabase.client.state == .signedOut)
            #expect(try await harness.storeIsEmpty())
        }
    }

    @Test("A fragment access token with CR/LF is refused before any request: it never reaches a header")
    func injectedFragmentToken() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let url = URL(
                string: SupabaseAppURLs.callback.absoluteString
                    + "#access_token=eyJhbGciOiJIUzI1NiJ9.e30.sig%0D%0AX-Injected:%20yes&expires_in=3600"
                    + "&refresh_token=forgedrefresh&token_type=bearer&type=magiclink")!
            let error = await caughtAuthError { _ = try await supabase.client.handleCallback(url) }
            #expect(error?.code == .invalidResponse)
            expectNoSecrets(error, ["X-Injected", "forgedrefresh"])
            #expect(harness.gotrue.requests.isEmpty)
            #expect(supabase.client.state == .signedOut)
            #expect(try await harness.storeIsEmpty())
        }
    }

    @Test("acceptsImplicitSessionLinks false: a fragment session is refused with zero requests; error links still map")
    func refusingUnrequestedLinks() async throws {
        try await withSupabase { harness in
            var options = harness.options(store: harness.store)
            options.acceptsImplicitSessionLinks = false
            let client = try AuthClient(
                provider: SupabaseClient.provider,
                configuration: ProviderConfiguration(
                    values: [
                        "projectURL": harness.gotrue.projectURL.absoluteString,
                        "publishableKey": GoTrueServer.publishableKey,
                    ],
                    redirectURI: SupabaseAppURLs.callback),
                options: options)
            await client.restore()
            let token = GoTrueServer.jwt(["sub": "attacker", "exp": Int(Date().timeIntervalSince1970) + 3600])
            let link = URL(
                string: SupabaseAppURLs.callback.absoluteString
                    + "#access_token=\(token)&expires_in=3600&refresh_token=attackerrefresh&token_type=bearer"
                    + "&type=magiclink")!
            #expect(!(await client.canHandle(link)))
            let error = await caughtAuthError { _ = try await client.handleCallback(link) }
            #expect(error?.code == .invalidCallback)
            expectNoSecrets(error, [token, "attackerrefresh"])
            #expect(harness.gotrue.requests.isEmpty)
            #expect(client.state == .signedOut)
            #expect(try await harness.storeIsEmpty())

            let expired = URL(
                string: SupabaseAppURLs.callback.absoluteString
                    + "#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid")!
            let mapped = await caughtAuthError { _ = try await client.handleCallback(expired) }
            #expect(mapped?.code == "otp_expired")
            #expect(harness.gotrue.requests.isEmpty)
        }
    }

    @Test("An implicit error link that also carries tokens: the error never repeats them")
    func errorWithTokensIsRedacted() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let token = GoTrueServer.jwt(["sub": "someone", "exp": Int(Date().timeIntervalSince1970) + 3600])
            let refresh = "refresh-token-9f8e7d6c"
            let url = URL(
                string: SupabaseAppURLs.callback.absoluteString
                    + "#access_token=\(token)&refresh_token=\(refresh)&error=server_error&error_code=\(refresh)"
                    + "&error_description=could+not+use+\(token)+or+\(refresh)")!
            let error = await caughtAuthError { _ = try await supabase.client.handleCallback(url) }
            #expect(error != nil)
            expectNoSecrets(error, [token, refresh])
            #expect(harness.gotrue.requests.isEmpty)
            #expect(supabase.client.state == .signedOut)
        }
    }
}
