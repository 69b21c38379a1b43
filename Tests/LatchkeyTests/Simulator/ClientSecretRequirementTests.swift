import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Flows that need a client secret are refused before any request or browser: a descriptor's
/// `clientSecret.required` at the generated initializer (Slack, Discord, LinkedIn, Apple), and a browser or
/// device sign-in whose later request authenticates with `basic` or `post` when it starts (GitHub's web flow,
/// Google's device flow).
@Suite("A missing client secret is refused before any request or browser")
struct ClientSecretRequirementTests {
    /// A browser that counts the times it was asked to show a page and never shows one.
    final class CountingBrowser: WebAuthenticator, Sendable {
        let opened = Locked(0)
        func authenticate(_ request: WebAuthenticationRequest) async throws(AuthError) -> URL {
            opened.withLock { $0 += 1 }
            throw AuthError(.loginCancelled, "This browser shows nothing.")
        }
    }

    static func options(_ simulator: ProviderSimulator) -> AuthClientOptions {
        AuthClientOptions(transport: simulator.transport, store: InMemorySessionStore(), sleep: { _ in })
    }

    static func client(_ spec: ProviderSpec, _ simulator: ProviderSimulator, secret: String? = nil) throws
        -> AuthClient
    {
        var configuration = simulator.configuration(redirectURI: ConformanceHarness.redirectURI(for: spec))
        configuration.clientSecret = secret
        return try AuthClient(provider: spec, configuration: configuration, options: options(simulator))
    }

    @Test("the generated initializer throws invalid_configuration naming clientSecret", arguments: [nil, "", "  "])
    func generatedInitializerRefuses(secret: String?) async throws {
        try await withSimulator(SlackClient.provider) { simulator in
            let error = #expect(throws: AuthError.self) {
                _ = try SlackClient(
                    clientID: "demo-client", redirectURI: URL(string: "https://app.example/callback"),
                    clientSecret: secret, options: Self.options(simulator))
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.contains("clientSecret") == true, "\(String(describing: error))")
            #expect(error?.message.contains("Slack") == true)
            #expect(error?.message.contains("openid.connect.token always needs client_secret") == true)
            #expect(simulator.requests.isEmpty)
        }
    }

    @Test(
        "every catalog provider whose descriptor requires the secret refuses without it, and is created with it",
        arguments: ["apple", "discord", "linkedin", "slack"])
    func catalogRequiresSecret(name: String) async throws {
        let spec = try ConformanceHarness.spec(named: name)
        #expect(spec.clientSecret != nil)
        try await withSimulator(spec) { simulator in
            let error = #expect(throws: AuthError.self) { _ = try Self.client(spec, simulator) }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.contains("clientSecret") == true)
            _ = try Self.client(spec, simulator, secret: "server-side-secret")
            #expect(simulator.requests.isEmpty)
        }
    }

    @Test("with the secret, the required-secret client signs in and sends it on the exchange")
    func withSecretSignsIn() async throws {
        try await withSimulator(SlackClient.provider) { simulator in
            let client = try Self.client(SlackClient.provider, simulator, secret: "server-side-secret")
            let session = try await client.signInWithBrowser(using: simulator.browser)
            #expect(!session.accessToken.isEmpty)
            let exchange = try #require(simulator.requests(to: .request("exchangeCode")).first)
            #expect(exchange.formBody["client_secret"] == "server-side-secret")
        }
    }

    @Test("GitHub's web flow without a secret: refused before the browser, the loopback server or any request")
    func derivedBrowserRefusal() async throws {
        let spec = GitHubClient.provider
        #expect(spec.clientSecret == nil)
        try await withSimulator(spec) { simulator in
            let client = try Self.client(spec, simulator)
            let browser = CountingBrowser()
            let error = await #expect(throws: AuthError.self) { try await client.signInWithBrowser(using: browser) }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.contains("'exchangeCode'") == true, "\(String(describing: error))")
            #expect(error?.message.contains("clientSecret") == true)
            #expect(browser.opened.withLock { $0 } == 0)

            let opened = Locked(0)
            let loopback = await #expect(throws: AuthError.self) {
                try await client.signInWithLoopback(
                    open: { _ throws(AuthError) in opened.withLock { $0 += 1 } }, timeout: .seconds(30))
            }
            #expect(loopback?.code == .invalidConfiguration)
            #expect(opened.withLock { $0 } == 0)
            await #expect(throws: AuthError.self) { _ = try await client.prepareAuthorization() }
            #expect(simulator.requests.isEmpty)
            #expect(client.state != .authenticating)
        }
    }

    @Test("GitHub's device flow needs no secret and still starts; Google's, whose token request posts it, does not")
    func deviceFlows() async throws {
        try await withSimulator(GitHubClient.provider) { simulator in
            let client = try Self.client(GitHubClient.provider, simulator)
            let authorization = try await client.startDeviceAuthorization()
            #expect(!authorization.userCode.isEmpty)
            #expect(simulator.requests(to: .request("deviceAuthorization")).count == 1)
        }
        try await withSimulator(GoogleClient.provider) { simulator in
            let client = try Self.client(GoogleClient.provider, simulator)
            let error = await #expect(throws: AuthError.self) { _ = try await client.startDeviceAuthorization() }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.contains("'deviceToken'") == true, "\(String(describing: error))")
            #expect(simulator.requests.isEmpty)
            _ = try await Self.client(GoogleClient.provider, simulator, secret: "tv-secret").startDeviceAuthorization()
            #expect(simulator.requests.count >= 1)
        }
    }
}
