import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Captures on the wire: a value read from a response after sign-in (Atlassian's cloud id from
/// `accessible-resources`) or from every token response, kept with the session, stored in its record, and
/// sent in later requests as `{NAME}`; a missing one is a clear error and nothing is sent.
@Suite("Engine: captures kept with the session and used in later requests")
struct CaptureTests {
    static func spec() -> ProviderSpec {
        var spec = AcmeSpec.make()
        spec.requests["accessibleResources"] = RequestSpec(
            method: "GET", url: AcmeSpec.template("{baseURL}/oauth/token/accessible-resources"),
            authorization: .accessToken, response: .document)
        spec.requests["myself"] = RequestSpec(
            method: "GET", url: AcmeSpec.template("{baseURL}/ex/jira/{cloudid}/rest/api/3/myself"),
            headers: [ParameterSpec("X-Region", AcmeSpec.string("{region}"))], authorization: .accessToken,
            response: .document)
        spec.actions.append(ActionSpec(name: "myself", request: "myself", parameters: []))
        spec.captures = [
            CaptureSpec(name: "cloudid", request: "accessibleResources", pointer: "/0/id"),
            CaptureSpec(name: "siteTrace", request: "accessibleResources", header: "X-Trace"),
            CaptureSpec(name: "region", pointer: "/region"),
        ]
        return spec
    }

    static func token(_ number: Int, region: String?) -> TestResponse {
        var body: [String: Any] = [
            "access_token": "at-\(number)", "refresh_token": "rt-\(number)", "expires_in": 3600,
            "token_type": "bearer", "user": ["id": "u1", "email": "ada@example.com"],
        ]
        if let region { body["region"] = region }
        return .json(body)
    }

    static func harness(resources: TestResponse) throws -> AcmeHarness {
        let harness = try AcmeHarness(spec: spec())
        harness.backend.override("/token") { _ in token(1, region: "eu") }
        harness.backend.override("/oauth/token") { _ in token(2, region: nil) }
        harness.backend.override("/oauth/token/accessible-resources") { _ in resources }
        harness.backend.override("/ex/jira/1324a887-45db-1bf4-1e99-ef0ff456d421/rest/api/3/myself") { _ in
            .json(["accountId": "5b10a2844c20165700ede21g"])
        }
        return harness
    }

    static let resources = TestResponse.json(
        [["id": "1324a887-45db-1bf4-1e99-ef0ff456d421", "name": "site-a", "url": "https://site-a.atlassian.net"]],
        headers: [("X-Trace", "trace-7")])

    @Test("the captured cloud id and token-response value appear in the later request; stored with the session")
    func captureUsedLater() async throws {
        let harness = try Self.harness(resources: Self.resources)
        defer { harness.server.stop() }
        let session = try await harness.signIn()
        #expect(
            session.captures == [
                "cloudid": "1324a887-45db-1bf4-1e99-ef0ff456d421", "siteTrace": "trace-7", "region": "eu",
            ])
        // One capture request for both captures of it, with the new session's token.
        let resourceRequests = harness.requests("/oauth/token/accessible-resources")
        #expect(resourceRequests.count == 1)
        #expect(resourceRequests.first?.header("Authorization") == "Bearer at-1")

        _ = try await harness.client.perform(action: "myself")
        let sent = try #require(harness.server.requests.last)
        #expect(sent.path == "/ex/jira/1324a887-45db-1bf4-1e99-ef0ff456d421/rest/api/3/myself")
        #expect(sent.header("X-Region") == "eu")

        let stored = try #require(try await harness.storedSession())
        #expect((stored["captures"] as? [String: String])?["cloudid"] == "1324a887-45db-1bf4-1e99-ef0ff456d421")
        #expect(!session.description.contains("1324a887"))
    }

    @Test("captures survive a relaunch and a refresh that does not carry them; no capture request is repeated")
    func capturesPersist() async throws {
        let harness = try Self.harness(resources: Self.resources)
        defer { harness.server.stop() }
        try await harness.signIn()
        let relaunched = try harness.makeClient(spec: Self.spec())
        await relaunched.restore()
        let refreshed = try await relaunched.currentSession(forceRefresh: true)
        #expect(refreshed.accessToken == "at-2")
        #expect(refreshed.captures["cloudid"] == "1324a887-45db-1bf4-1e99-ef0ff456d421")
        #expect(refreshed.captures["region"] == "eu")
        _ = try await relaunched.perform(action: "myself")
        #expect(harness.server.requests.last?.path.hasPrefix("/ex/jira/1324a887-") == true)
        #expect(harness.requests("/oauth/token/accessible-resources").count == 1)
    }

    @Test("an absent capture is a clear error naming it, and the request is never sent")
    func absentCapture() async throws {
        let harness = try Self.harness(resources: .json([Any]()))
        defer { harness.server.stop() }
        let session = try await harness.signIn()
        #expect(session.captures["cloudid"] == nil)
        let before = harness.server.requests.count
        let error = await #expect(throws: AuthError.self) { _ = try await harness.client.perform(action: "myself") }
        #expect(error?.code == .sessionMissing)
        #expect(error?.message.contains("{cloudid}") == true, "\(String(describing: error))")
        #expect(error?.message.contains("accessibleResources") == true)
        #expect(harness.server.requests.count == before)
        #expect(!harness.server.requests.contains { $0.path.contains("{") || $0.path.contains("%7B") })
    }

    @Test("a capture request that fails fails the sign-in, and nothing is stored")
    func failingCaptureRequest() async throws {
        let harness = try Self.harness(resources: .json(["error": "unauthorized"], status: 401))
        defer { harness.server.stop() }
        await #expect(throws: AuthError.self) { try await harness.signIn() }
        #expect(try await harness.storedSession() == nil)
        #expect(await harness.client.restore() == .signedOut)
    }
}
