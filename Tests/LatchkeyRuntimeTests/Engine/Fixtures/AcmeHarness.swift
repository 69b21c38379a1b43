import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// A real server on 127.0.0.1 running ``AcmeBackend``, and an ``AuthClient`` talking to it through
/// ``URLSessionHTTPTransport``.
struct AcmeHarness {
    static let redirect = URL(string: "dev.acme.app://auth-callback")!

    let backend: AcmeBackend
    let server: TestHTTPServer
    let clock: MutableClock
    let store: any SessionStore
    let logs: LogSink
    let transport: URLSessionHTTPTransport
    let spec: ProviderSpec
    let client: AuthClient

    init(
        spec: ProviderSpec = AcmeSpec.make(), store: any SessionStore = InMemorySessionStore(),
        values: [String: String] = [:], redirectURI: URL? = AcmeHarness.redirect,
        leeway: LatchkeyDuration = .seconds(60),
        random: any RandomSource = SeededRandomSource(seed: "acme"), automaticRefresh: AutomaticRefresh? = nil
    ) throws {
        let backend = AcmeBackend()
        self.backend = backend
        self.server = try TestHTTPServer { await backend.respond($0) }
        self.clock = MutableClock()
        self.store = store
        self.logs = LogSink()
        self.transport = URLSessionHTTPTransport()
        self.spec = spec
        self.client = try AuthClient(
            provider: spec, configuration: Self.configuration(server, values: values, redirectURI: redirectURI),
            options: Self.options(
                transport, store, clock, logs, leeway: leeway, random: random, automaticRefresh: automaticRefresh))
    }

    /// Another client on the same server (a relaunch, or an app extension).
    func makeClient(
        store: (any SessionStore)? = nil, spec: ProviderSpec? = nil, automaticRefresh: AutomaticRefresh? = nil
    ) throws -> AuthClient {
        try AuthClient(
            provider: spec ?? self.spec,
            configuration: Self.configuration(server, values: [:], redirectURI: Self.redirect),
            options: Self.options(
                transport, store ?? self.store, clock, logs, leeway: .seconds(60), random: SystemRandomSource(),
                automaticRefresh: automaticRefresh))
    }

    static func configuration(_ server: TestHTTPServer, values: [String: String], redirectURI: URL?)
        -> ProviderConfiguration
    {
        let defaults = [
            "baseURL": server.baseURL.absoluteString + "/", "clientID": "acme-app", "apiKey": "pk_live_123",
        ]
        return ProviderConfiguration(values: defaults.merging(values) { _, new in new }, redirectURI: redirectURI)
    }

    static func options(
        _ transport: URLSessionHTTPTransport, _ store: any SessionStore, _ clock: MutableClock, _ logs: LogSink,
        leeway: LatchkeyDuration, random: any RandomSource, automaticRefresh: AutomaticRefresh? = nil
    ) -> AuthClientOptions {
        AuthClientOptions(
            transport: transport, store: store, random: random, refreshLeeway: leeway, logger: logs.logger,
            userAgent: "LatchkeyTests/1", environment: { _ in nil }, automaticRefresh: automaticRefresh,
            clock: clock.manual)
    }

    /// The requests to a path.
    func requests(_ path: String) -> [RecordedRequest] { server.requests.filter { $0.path == path } }

    /// The refresh requests received.
    var refreshRequests: [RecordedRequest] { server.requests.filter(Self.isRefresh) }

    /// Returns once a refresh request has arrived (or the waiting task is cancelled).
    func refreshRequestArrived() async { await server.requests { $0.contains(where: Self.isRefresh) } }

    private static func isRefresh(_ request: RecordedRequest) -> Bool {
        request.path == "/oauth/token" && request.formBody["grant_type"] == "refresh_token"
    }

    /// Signs in with the password flow (one request).
    @discardableResult
    func signIn() async throws -> Session {
        try await client.signIn(username: "ada@example.com", password: "hunter2")
    }

    /// The session record in the store, decoded, or `nil`.
    func storedSession() async throws -> [String: Any]? {
        guard let data = try await store.load(key: client.storeKey) else { return nil }
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["session"] as? [String: Any]
    }
}
