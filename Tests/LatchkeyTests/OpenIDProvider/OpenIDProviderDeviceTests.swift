import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

// Nested in ``OpenIDProviderTests`` so that it inherits its traits: enabled only with a real provider (or
// in CI), and serialized with the other real-provider tests. Serializing matters: django-oauth-toolkit
// puts the user's `last_login` in every ID token's `auth_time`, so a login in a parallel test changes the
// `auth_time` of a refreshed ID token, which the engine rejects (OpenID Connect Core §12.2).
extension OpenIDProviderTests {
    @Suite("device authorization grant", timeLimit(minutes: 5))
    struct Device {
        /// django-oauth-toolkit lists the device endpoint in neither discovery document (OpenID, RFC 8414), so
        /// these tests use the generated client as it is, with its optional `deviceAuthorizationEndpoint`
        /// setting: the descriptor's `{discovered.device_authorization_endpoint ?? deviceAuthorizationEndpoint}`
        /// falls back to it. Everything (discovery, polling, token endpoint, user info, store) is generated.

        /// A harness whose first polling sleep returns at once (so the first poll meets an unapproved code)
        /// and whose later sleeps are short real waits; every requested interval is recorded.
        static func harness(sleeps: OIDCShared<[LatchkeyDuration]>) throws -> RealProviderHarness {
            try RealProviderHarness(clientID: RealProvider.deviceClient, deviceEndpoint: true) { duration in
                let count = sleeps.update { list -> Int in
                    list.append(duration)
                    return list.count
                }
                if count > 1 { try await LatchkeyDuration.sleep(.milliseconds(150)) }
            }
        }

        @Test("device flow end to end: pending until the browser approves, then a stored session with the user")
        func approved() async throws {
            let sleeps = OIDCShared<[LatchkeyDuration]>([])
            let harness = try Self.harness(sleeps: sleeps)
            let authorization = try await harness.client.startDeviceAuthorization()
            #expect(authorization.userCode.count == 8)
            #expect(authorization.verificationURI.absoluteString == harness.origin + "/o/device/")
            let complete = try #require(authorization.verificationURIComplete)
            #expect(complete.oidcQuery("user_code") == authorization.userCode)
            #expect(authorization.interval == 1)
            #expect(authorization.expiresIn == 1800)
            let start = try #require(harness.transport.to("/o/device-authorization/").first)
            #expect(start.form == ["client_id": RealProvider.deviceClient, "scope": "openid profile email"])
            #expect(start.response?.status == 200)

            let polling = Task { try await harness.client.completeDeviceAuthorization(authorization) }
            let sawPending = await harness.transport.tokenRequests {
                $0.contains { $0.json["error"] as? String == "authorization_pending" }
            }
            #expect(sawPending, "the first poll must meet an unapproved code")
            #expect(harness.client.state == .authenticating)

            let status = try await harness.browser.approveDevice(
                verificationURI: complete, username: RealProvider.username, password: RealProvider.password)
            #expect(status.contains("Authorized"))
            #expect(
                harness.browser.history.contains {
                    $0.url.rawPath == "/o/device-confirm/\(RealProvider.deviceClient)/\(authorization.userCode)"
                })

            let session = try await polling.value
            #expect(session.refreshToken != nil)
            #expect(session.idToken == nil, "django-oauth-toolkit's device grant issues no ID token")
            #expect(session.user?.id == "1", "the user comes from userinfo")
            #expect(session.user?.name == "Ada Lovelace")
            #expect(harness.client.state == .signedIn(session.userOrPlaceholder))
            #expect(try await harness.store.load(key: harness.client.storeKey) != nil)

            let polls = harness.transport.tokenRequests
            #expect(polls.count >= 2)
            for poll in polls {
                #expect(poll.form["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code")
                #expect(poll.form["client_id"] == RealProvider.deviceClient)
                #expect(poll.form["device_code"]?.isEmpty == false)
            }
            #expect(polls.last?.response?.status == 200)
            #expect(polls.dropLast().allSatisfy { $0.json["error"] as? String == "authorization_pending" })
            #expect(sleeps.value.allSatisfy { $0 == .seconds(1) }, "polled at the provider's interval")
            #expect(sleeps.value.count == polls.count)
            #expect(try await harness.rawUserInfo(session.accessToken) == 200)

            // The device client can refresh.
            let refreshed = try await harness.client.currentSession(forceRefresh: true)
            #expect(refreshed.accessToken != session.accessToken)
        }

        @Test("device flow denied in the browser: login_cancelled, nothing stored")
        func denied() async throws {
            let sleeps = OIDCShared<[LatchkeyDuration]>([])
            let harness = try Self.harness(sleeps: sleeps)
            let authorization = try await harness.client.startDeviceAuthorization()
            let polling = Task { try await harness.client.completeDeviceAuthorization(authorization) }
            #expect(await harness.transport.tokenRequests { !$0.isEmpty })

            let status = try await harness.browser.approveDevice(
                verificationURI: try #require(authorization.verificationURIComplete), username: RealProvider.username,
                password: RealProvider.password, approve: false)
            #expect(status.contains("Denied"))

            let result = await polling.result
            let error = try #require(result.failure as? AuthError)
            #expect(error.code == .loginCancelled)
            #expect(error.providerCode == "access_denied")
            #expect(harness.transport.tokenRequests.last?.json["error"] as? String == "access_denied")
            #expect(harness.client.state == .signedOut)
            #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
        }

        @Test("the user code typed by hand at verification_uri works too")
        func typedUserCode() async throws {
            let sleeps = OIDCShared<[LatchkeyDuration]>([])
            let harness = try Self.harness(sleeps: sleeps)
            let authorization = try await harness.client.startDeviceAuthorization(scopes: ["openid"])
            #expect(harness.transport.to("/o/device-authorization/").first?.form["scope"] == "openid")
            try await harness.browser.approveDevice(
                verificationURI: authorization.verificationURI, username: RealProvider.username,
                password: RealProvider.password, userCode: authorization.userCode)
            let session = try await harness.client.completeDeviceAuthorization(authorization)
            #expect(session.scope == "openid")
            #expect(harness.transport.tokenRequests.count == 1, "approved before the first poll")
        }
    }
}

extension Result {
    /// The error, when this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
