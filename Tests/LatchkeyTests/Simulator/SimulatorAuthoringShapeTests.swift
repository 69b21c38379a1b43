import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyVocabulary
import Testing

/// The simulator serves the format-version-2 authoring keys that Strava-, Reddit- and Atlassian-style
/// descriptors use: user documents with `user.nameParts`, error bodies carrying a `match` row's members (in
/// an HTTP body and in a callback), and `captures` (the capture request's answer, token responses, and a later
/// request whose URL uses `{NAME}`).
@Suite("ProviderSimulator: nameParts, match rows and captures")
struct SimulatorAuthoringShapeTests {
    static func template(_ text: String) -> ValueTemplate {
        var parts: [ValueTemplate.Segment] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            parts.append(.variable(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        return ValueTemplate(segments: parts)
    }

    /// GitHub's descriptor reshaped: the name in two parts, a `match` row ahead of the others, a capture
    /// request answering an array (`/0/id`), a token-response capture and an action whose URL uses both.
    static func spec() -> ProviderSpec {
        var spec = GitHubClient.provider
        spec.name = "github-authoring-shapes"
        spec.user.name = nil
        spec.user.nameParts = ["/firstname", "/lastname"]
        spec.errors.rules.insert(
            .init(
                match: [.init(pointer: "/errors/0/field", value: "client_id")], code: "invalid_client",
                kind: .misconfigured), at: 0)
        spec.errors.callbackRules.insert(
            .init(
                match: [.init(pointer: "/error_reason", value: "user_denied")], code: "login_cancelled",
                kind: .cancelled),
            at: 0)
        spec.requests["accessibleResources"] = RequestSpec(
            method: "GET", url: template("https://api.github.com/oauth/token/accessible-resources"),
            authorization: .accessToken, response: .document)
        spec.requests["myself"] = RequestSpec(
            method: "GET", url: template("https://api.github.com/ex/jira/{cloudid}/{region}/myself"),
            authorization: .accessToken, response: .document)
        spec.actions.append(ActionSpec(name: "myself", request: "myself", parameters: []))
        spec.captures = [
            CaptureSpec(name: "cloudid", request: "accessibleResources", pointer: "/0/id"),
            CaptureSpec(name: "region", pointer: "/region"),
        ]
        return spec
    }

    static func client(_ simulator: ProviderSimulator) throws -> AuthClient {
        var configuration = simulator.configuration(redirectURI: URL(string: "com.example.app:/oauth"))
        configuration.clientSecret = "simulated-secret"
        return try AuthClient(
            provider: simulator.provider, configuration: configuration,
            options: AuthClientOptions(transport: simulator.transport, store: InMemorySessionStore()))
    }

    @Test("a user document carries the name's parts at the nameParts pointers", timeLimit(minutes: 1))
    func namePartsServed() async throws {
        try await withSimulator(Self.spec()) { simulator in
            let client = try Self.client(simulator)
            _ = try await client.signInWithBrowser(using: simulator.browser)
            let user = try await client.fetchUser()
            #expect(user.name == "Ada Lovelace")
        }
    }

    @Test("a match row's members are in the error body and pick the row", timeLimit(minutes: 1))
    func matchMembersServed() async throws {
        try await withSimulator(Self.spec()) { simulator in
            let client = try Self.client(simulator)
            simulator.failNext(
                simulator.errorResponse(providerCode: "bad_request", members: ["/errors/0/field": "client_id"]),
                request: "exchangeCode")
            let error = await #expect(throws: AuthError.self) {
                try await client.signInWithBrowser(using: simulator.browser)
            }
            #expect(error?.code.rawValue == "invalid_client")
            #expect(simulator.requests(to: .request("exchangeCode")).count == 1)
            #expect(simulator.requests(to: .request("accessibleResources")).isEmpty)
            #expect(await client.cachedSession == nil)

            simulator.failNextAuthorization(error: "access_denied", parameters: ["error_reason": "user_denied"])
            simulator.resetRecording()
            let denied = await #expect(throws: AuthError.self) {
                try await client.signInWithBrowser(using: simulator.browser)
            }
            #expect(denied?.code.rawValue == "login_cancelled")
            #expect(simulator.tokenRequests.isEmpty)
        }
    }

    @Test("captures come from the capture request and the token response and fill a later URL", timeLimit(minutes: 1))
    func capturesServed() async throws {
        try await withSimulator(Self.spec()) { simulator in
            let client = try Self.client(simulator)
            let session = try await client.signInWithBrowser(using: simulator.browser)
            #expect(
                session.captures == [
                    "cloudid": ProviderSimulator.capturedValue("cloudid"),
                    "region": ProviderSimulator.capturedValue("region"),
                ])
            #expect(simulator.requests(to: .request("accessibleResources")).count == 1)
            _ = try await client.perform(action: "myself")
            let sent = try #require(simulator.requests(to: .request("myself")).last)
            #expect(sent.path == "/ex/jira/simulated-cloudid/simulated-region/myself")
            #expect(sent.header("Authorization") == "Bearer \(session.accessToken)")
        }
    }
}
