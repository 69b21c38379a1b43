import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Device authorization (RFC 8628) against a scripted provider: no real waiting")
struct DevicePollingTests {
    @Test("start: RFC 8414 metadata is merged for the device endpoint; the device code stays private")
    func start() async throws {
        let provider = try ScriptedDeviceProvider(tokenAnswers: [])
        let harness = try DeviceHarness(provider)
        let authorization = try await harness.client.startDeviceAuthorization()
        #expect(authorization.userCode == "6TSGL96A")
        #expect(authorization.verificationURI.absoluteString == "http://127.0.0.1/o/device/")
        #expect(
            authorization.verificationURIComplete?.absoluteString == "http://127.0.0.1/o/device/?user_code=6TSGL96A")
        #expect(authorization.expiresIn == 1800)
        #expect(authorization.interval == 3)
        #expect(authorization.expiresAt == harness.clock.value.addingTimeInterval(1800))
        #expect(!String(describing: authorization).contains("dc-secret-1"))
        #expect(!String(reflecting: authorization).contains("dc-secret-1"))
        var dumped = ""
        dump(authorization, to: &dumped)
        #expect(!dumped.contains("dc-secret-1"))

        #expect(
            provider.server.requests.map(\.path) == [
                "/o/.well-known/openid-configuration", "/.well-known/oauth-authorization-server/o",
                "/o/device-authorization/",
            ])
        let request = try #require(provider.requests("/o/device-authorization/").first)
        #expect(request.formBody == ["client_id": "latchkey-device", "scope": "openid profile email"])
        let values = try await harness.client.discover()
        #expect(values["revocation_endpoint"] == provider.issuer.absoluteString + "/revoke_token/")
        #expect(values["authorization_endpoint"] == provider.issuer.absoluteString + "/authorize/", "OpenID wins")
        #expect(provider.server.requests.count == 3, "discovery is cached")
        #expect(provider.tokenRequests.isEmpty)
    }

    @Test("explicit scopes are sent as asked")
    func scopes() async throws {
        let provider = try ScriptedDeviceProvider(tokenAnswers: [])
        let harness = try DeviceHarness(provider)
        _ = try await harness.client.startDeviceAuthorization(scopes: ["openid", "email"])
        #expect(provider.requests("/o/device-authorization/").first?.formBody["scope"] == "openid email")
    }

    @Test("authorization_pending keeps polling at the interval; the session is stored and published")
    func pendingThenTokens() async throws {
        let pending = ScriptedDeviceProvider.error("authorization_pending")
        let provider = try ScriptedDeviceProvider(tokenAnswers: [pending, pending, ScriptedDeviceProvider.tokens])
        let harness = try DeviceHarness(provider)
        let authorization = try await harness.client.startDeviceAuthorization()
        let states = harness.client.stateUpdates()
        let session = try await harness.client.completeDeviceAuthorization(authorization)

        #expect(session.accessToken == "at-1")
        #expect(session.refreshToken == "rt-1")
        #expect(session.user?.id == "1")
        #expect(session.user?.name == "Ada Lovelace")
        #expect(harness.seconds == [3, 3, 3])
        #expect(provider.tokenRequests.count == 3)
        for request in provider.tokenRequests {
            #expect(
                request.formBody == [
                    "grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": "dc-secret-1",
                    "client_id": "latchkey-device",
                ])
        }
        #expect(provider.requests("/o/userinfo/").first?.header("Authorization") == "Bearer at-1")
        #expect(harness.client.state == .signedIn(session.userOrPlaceholder))
        #expect(try await harness.store.load(key: harness.client.storeKey) != nil)
        #expect(await harness.client.cachedSession == session)

        var seen: [AuthState] = []
        for await state in states {
            seen.append(state)
            if case .signedIn = state { break }
        }
        #expect(seen.contains(.authenticating))
    }

    @Test("slow_down adds 5 seconds each time; no interval means 5 seconds")
    func slowDown() async throws {
        let provider = try ScriptedDeviceProvider(
            deviceResponse: ScriptedDeviceProvider.device(interval: nil),
            tokenAnswers: [
                ScriptedDeviceProvider.error("slow_down"), ScriptedDeviceProvider.error("slow_down"),
                ScriptedDeviceProvider.error("authorization_pending"), ScriptedDeviceProvider.tokens,
            ])
        let harness = try DeviceHarness(provider)
        let authorization = try await harness.client.startDeviceAuthorization()
        #expect(authorization.interval == 5)
        _ = try await harness.client.completeDeviceAuthorization(authorization)
        #expect(harness.seconds == [5, 10, 15, 15])
        #expect(provider.tokenRequests.count == 4)
    }

    @Test("expired_token ends the flow: expired_token, signed out, nothing stored")
    func expired() async throws {
        let provider = try ScriptedDeviceProvider(tokenAnswers: [
            ScriptedDeviceProvider.error("authorization_pending"), ScriptedDeviceProvider.error("expired_token"),
        ])
        let harness = try DeviceHarness(provider)
        let authorization = try await harness.client.startDeviceAuthorization()
        let error = await OIDCTest.expectError(.expiredToken) {
            try await harness.client.completeDeviceAuthorization(authorization)
        }
        #expect(error?.providerCode == "expired_token")
        #expect(provider.tokenRequests.count == 2)
        #expect(harness.client.state == .signedOut)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
        #expect(provider.requests("/o/userinfo/").isEmpty)
    }

    @Test("access_denied is login_cancelled")
    func denied() async throws {
        let provider = try ScriptedDeviceProvider(tokenAnswers: [ScriptedDeviceProvider.error("access_denied")])
        let harness = try DeviceHarness(provider)
        let authorization = try await harness.client.startDeviceAuthorization()
        let error = await OIDCTest.expectError(.loginCancelled) {
            try await harness.client.completeDeviceAuthorization(authorization)
        }
        #expect(error?.providerCode == "access_denied")
        #expect(provider.tokenRequests.count == 1)
        #expect(harness.client.state == .signedOut)
        #expect(await harness.client.cachedSession == nil)
    }

    @Test("the local clock passing expires_in ends the flow without another request")
    func localExpiry() async throws {
        let provider = try ScriptedDeviceProvider(
            deviceResponse: ScriptedDeviceProvider.device(interval: 4, expiresIn: 10), tokenAnswers: [])
        let harness = try DeviceHarness(provider)
        let authorization = try await harness.client.startDeviceAuthorization()
        await OIDCTest.expectError(.expiredToken) {
            try await harness.client.completeDeviceAuthorization(authorization)
        }
        #expect(harness.seconds == [4, 4, 2], "the last wait ends at the expiry, not a whole interval later")
        #expect(provider.tokenRequests.count == 2, "polled at +4 s and +8 s; +10 s is the end of the 10 s lifetime")
    }

    @Test("an ID token in the device answer is validated: a bad one is invalid_id_token, nothing stored")
    func badIDToken() async throws {
        let provider = try ScriptedDeviceProvider(tokenAnswers: [
            .json(["access_token": "at-1", "token_type": "Bearer", "expires_in": 3600, "id_token": "not.a.jwt"])
        ])
        let harness = try DeviceHarness(provider)
        let authorization = try await harness.client.startDeviceAuthorization()
        await OIDCTest.expectError(.invalidIDToken) {
            try await harness.client.completeDeviceAuthorization(authorization)
        }
        #expect(harness.client.state == .signedOut)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
    }

    @Test("another token error ends the flow as it is")
    func otherError() async throws {
        let provider = try ScriptedDeviceProvider(tokenAnswers: [
            ScriptedDeviceProvider.error("invalid_client", status: 401)
        ])
        let harness = try DeviceHarness(provider)
        let authorization = try await harness.client.startDeviceAuthorization()
        await OIDCTest.expectError("invalid_client") {
            try await harness.client.completeDeviceAuthorization(authorization)
        }
        #expect(provider.tokenRequests.count == 1)
    }

    @Test("cancelling the task ends polling with login_cancelled")
    func cancellation() async throws {
        let provider = try ScriptedDeviceProvider(tokenAnswers: [])
        let (sleeping, signal) = AsyncStream<Void>.makeStream()
        let harness = try DeviceHarness(provider) { _ in
            signal.yield()
            try await LatchkeyDuration.sleep(.seconds(3600))
        }
        let authorization = try await harness.client.startDeviceAuthorization()
        let task = Task { try await harness.client.completeDeviceAuthorization(authorization) }
        var iterator = sleeping.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        let result = await task.result
        #expect(throws: AuthError.self) { try result.get() }
        #expect((try? result.get()) == nil)
        if case .failure(let error as AuthError) = result { #expect(error.code == .loginCancelled) }
        #expect(provider.tokenRequests.isEmpty)
        #expect(harness.client.state == .signedOut)
    }

    @Test("a malformed device response is invalid_response")
    func malformed() async throws {
        let provider = try ScriptedDeviceProvider(
            deviceResponse: .json(["device_code": "x", "verification_uri": "http://127.0.0.1/d", "expires_in": 60]),
            tokenAnswers: [])
        let harness = try DeviceHarness(provider)
        await OIDCTest.expectError(.invalidResponse) { _ = try await harness.client.startDeviceAuthorization() }
    }

    @Test("no device endpoint in either document: invalid_configuration, no device request")
    func missingEndpoint() async throws {
        let provider = try ScriptedDeviceProvider(metadataListsDevice: false, tokenAnswers: [])
        let harness = try DeviceHarness(provider)
        let error = await OIDCTest.expectError(.invalidConfiguration) {
            _ = try await harness.client.startDeviceAuthorization()
        }
        #expect(error?.message.contains("device_authorization_endpoint") == true)
        #expect(provider.requests("/o/device-authorization/").isEmpty)
        #expect(try await harness.client.discover()["revocation_endpoint"] != nil)
    }

    @Test("no device endpoint discovered: the configured deviceAuthorizationEndpoint is used")
    func configuredFallback() async throws {
        let provider = try ScriptedDeviceProvider(metadataListsDevice: false, tokenAnswers: [])
        let harness = try DeviceHarness(provider, deviceEndpoint: provider.server.url("/o/device-authorization/"))
        let authorization = try await harness.client.startDeviceAuthorization()
        #expect(authorization.userCode == "6TSGL96A")
        let request = try #require(provider.requests("/o/device-authorization/").first)
        #expect(request.method == "POST")
        #expect(request.formBody == ["client_id": "latchkey-device", "scope": "openid profile email"])
    }

    @Test("a discovered device endpoint wins over the configured one")
    func discoveredWins() async throws {
        let provider = try ScriptedDeviceProvider(tokenAnswers: [])
        let harness = try DeviceHarness(provider, deviceEndpoint: provider.server.url("/o/configured-device/"))
        _ = try await harness.client.startDeviceAuthorization()
        #expect(provider.requests("/o/device-authorization/").count == 1)
        #expect(provider.requests("/o/configured-device/").isEmpty)
    }

    @Test("a complete OpenID document needs no RFC 8414 request")
    func completeOpenIDDocument() async throws {
        let provider = try ScriptedDeviceProvider(
            metadataListsDevice: false, openIDListsEverything: true, tokenAnswers: [])
        let harness = try DeviceHarness(provider)
        _ = try await harness.client.startDeviceAuthorization()
        #expect(
            provider.server.requests.map(\.path) == ["/o/.well-known/openid-configuration", "/o/device-authorization/"])
    }

    @Test("an interval of days is capped, and no wait runs past the codes' expiry")
    func hugeInterval() async throws {
        let provider = try ScriptedDeviceProvider(
            deviceResponse: ScriptedDeviceProvider.device(interval: 999_999, expiresIn: 100), tokenAnswers: [])
        let harness = try DeviceHarness(provider)
        let authorization = try await harness.client.startDeviceAuthorization()
        #expect(authorization.interval == DeviceAuthorization.maximumInterval)
        await OIDCTest.expectError(.expiredToken) {
            try await harness.client.completeDeviceAuthorization(authorization)
        }
        #expect(harness.seconds == [60, 40], "one capped interval, then only what is left of the 100 s")
        #expect(provider.tokenRequests.count == 1)
    }

    @Test("slow_down never pushes the interval past the cap")
    func slowDownCapped() async throws {
        let provider = try ScriptedDeviceProvider(
            deviceResponse: ScriptedDeviceProvider.device(interval: 58),
            tokenAnswers: [ScriptedDeviceProvider.error("slow_down"), ScriptedDeviceProvider.tokens])
        let harness = try DeviceHarness(provider)
        let authorization = try await harness.client.startDeviceAuthorization()
        _ = try await harness.client.completeDeviceAuthorization(authorization)
        #expect(harness.seconds == [58, 60])
    }

    @Test(
        "a 503, a 5xx without a body or a 429 on one poll backs off (doubling, capped) and keeps polling",
        arguments: [
            TestResponse.json(["error": "temporarily_unavailable"], status: 503), TestResponse(status: 502),
            TestResponse.json(["error": "rate_limited"], status: 429),
        ])
    func transientFailureBacksOff(failure: TestResponse) async throws {
        let provider = try ScriptedDeviceProvider(tokenAnswers: [
            failure, failure, ScriptedDeviceProvider.error("authorization_pending"), ScriptedDeviceProvider.tokens,
        ])
        let harness = try DeviceHarness(provider)
        let authorization = try await harness.client.startDeviceAuthorization()
        let session = try await harness.client.completeDeviceAuthorization(authorization)
        #expect(session.accessToken == "at-1")
        #expect(harness.seconds == [3, 6, 12, 12])
        #expect(provider.tokenRequests.count == 4)
    }

    @Test(
        "a verification URI that is plain http on a public host, or carries user info, is never handed to the app",
        arguments: [
            ("http://idp.example/device", nil), ("https://evil.example@idp.example/device", nil),
            ("https://user:pw@idp.example/device", nil), ("javascript:alert(1)", nil),
            ("https://idp.example/device", "http://idp.example/device?user_code=X"),
            ("https://idp.example/device", "https://evil@idp.example/device?user_code=X"),
        ] as [(String, String?)])
    func unsafeVerificationURI(uri: String, complete: String?) async throws {
        let provider = try ScriptedDeviceProvider(
            deviceResponse: ScriptedDeviceProvider.device(verificationURI: uri, complete: complete), tokenAnswers: [])
        let harness = try DeviceHarness(provider)
        await OIDCTest.expectError(.invalidResponse) { _ = try await harness.client.startDeviceAuthorization() }
        #expect(provider.tokenRequests.isEmpty)
    }

    @Test("https verification URIs are accepted")
    func httpsVerificationURI() async throws {
        let provider = try ScriptedDeviceProvider(
            deviceResponse: ScriptedDeviceProvider.device(
                verificationURI: "https://idp.example/device", complete: "https://idp.example/device?user_code=X"),
            tokenAnswers: [])
        let harness = try DeviceHarness(provider)
        let authorization = try await harness.client.startDeviceAuthorization()
        #expect(authorization.verificationURI.absoluteString == "https://idp.example/device")
    }

    @Test(
        "a user code with control, bidi or invisible characters is refused",
        arguments: [
            "ABCD\u{202E}EFGH", "ABCD\nEFGH", "AB\u{0007}CD", "AB\u{200B}CD", "AB\u{2066}CD",
            String(repeating: "A", count: 65),
        ])
    func unprintableUserCode(code: String) async throws {
        let provider = try ScriptedDeviceProvider(
            deviceResponse: ScriptedDeviceProvider.device(userCode: code), tokenAnswers: [])
        let harness = try DeviceHarness(provider)
        await OIDCTest.expectError(.invalidResponse) { _ = try await harness.client.startDeviceAuthorization() }
    }

    @Test("readable user codes stay accepted", arguments: ["WDJB-MJHT", "6TSGL96A", "123 456", "ÄÖÜ-ßÉ"])
    func printableUserCode(code: String) async throws {
        let provider = try ScriptedDeviceProvider(
            deviceResponse: ScriptedDeviceProvider.device(userCode: code), tokenAnswers: [])
        let harness = try DeviceHarness(provider)
        #expect(try await harness.client.startDeviceAuthorization().userCode == code)
    }

    @Test("signOut() while the token request that approves is on the wire: login_cancelled, nothing installed")
    func signOutWhileTokenRequestIsOnTheWire() async throws {
        let provider = try ScriptedDeviceProvider(tokenAnswers: [.delay(1.5, then: ScriptedDeviceProvider.tokens)])
        let harness = try DeviceHarness(provider)
        let authorization = try await harness.client.startDeviceAuthorization()
        let before = provider.server.requests.count
        let client = harness.client
        let completion = Task { try await client.completeDeviceAuthorization(authorization) }
        await provider.server.requests(atLeast: before + 1)
        try await harness.client.signOut()
        let result = await completion.result
        guard case .failure(let error) = result else {
            Issue.record("the device sign-in succeeded after the sign-out")
            return
        }
        #expect((error as? AuthError)?.code == .loginCancelled)
        #expect(provider.tokenRequests.count == 1)
        #expect(harness.client.state == .signedOut)
        #expect(await harness.client.cachedSession == nil)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
    }
}
