import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

/// A Base IdP server, a shared clock and a private directory for a ``FileSessionStore``, with clients
/// made the way an app makes them (the generated `BaseIdPClient`).
struct BaseIdPHarness: Sendable {
    let server: BaseIdPServer
    let clock: BaseIdPClock
    let directory: URL

    /// The file store every client of the harness shares (a relaunched app reads the same files).
    var fileStore: FileSessionStore { FileSessionStore(directory: directory) }

    /// Options over the shared clock; the environment is empty unless given.
    func options(
        store: (any SessionStore)? = nil, refreshLeeway: LatchkeyDuration = .seconds(60),
        environment: [String: String] = [:]
    ) -> AuthClientOptions {
        AuthClientOptions(
            transport: URLSessionHTTPTransport(), store: store ?? fileStore, now: { [clock] in clock.now },
            refreshLeeway: refreshLeeway, userAgent: "LatchkeyTests/BaseIdP", environment: { environment[$0] })
    }

    /// A client with the issuer and client key passed in code (and the redirect URI, unless `nil`).
    func makeClient(
        redirectURI: URL? = BaseIdPServer.customRedirect, clientKey: String = BaseIdPServer.clientKey,
        store: (any SessionStore)? = nil, refreshLeeway: LatchkeyDuration = .seconds(60),
        environment: [String: String] = [:]
    ) throws(AuthError) -> BaseIdPClient {
        try BaseIdPClient(
            issuer: server.http.baseURL, clientID: clientKey, redirectURI: redirectURI,
            options: options(store: store, refreshLeeway: refreshLeeway, environment: environment))
    }

    /// Signs in through the headless browser and returns the session.
    @discardableResult
    func signIn(_ client: BaseIdPClient) async throws -> Session {
        try await client.signInWithBrowser(using: HeadlessUserAgent())
    }

    /// The store key of the session of a client made by
    /// ``makeClient(redirectURI:clientKey:store:refreshLeeway:environment:)``.
    var sessionKey: String {
        get throws { try makeClient().client.storeKey }
    }

    /// The stored session, read through the store as a relaunched app would, or `nil`.
    func storedSession(store: (any SessionStore)? = nil) async throws -> [String: Any]? {
        guard let data = try await (store ?? fileStore).load(key: try sessionKey) else { return nil }
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["session"] as? [String: Any]
    }
}

/// Runs a test against a fresh Base IdP server and file store, and always stops the server (off the
/// cooperative pool) and removes the directory afterwards.
func withBaseIdP(_ body: (BaseIdPHarness) async throws -> Void) async throws {
    let clock = BaseIdPClock()
    let server = try BaseIdPServer(clock: clock)
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("latchkey-base-idp-\(UUID().uuidString)", isDirectory: true)
    let harness = BaseIdPHarness(server: server, clock: clock, directory: directory)
    do {
        try await body(harness)
    } catch {
        await server.shutdown()
        try? FileManager.default.removeItem(at: directory)
        throw error
    }
    await server.shutdown()
    try? FileManager.default.removeItem(at: directory)
}

/// Runs `work`, which must throw an ``AuthError``, and returns it.
func baseIdPError(
    sourceLocation: SourceLocation = #_sourceLocation, _ work: () async throws -> Void
) async -> AuthError? {
    do {
        try await work()
        Issue.record("expected an AuthError", sourceLocation: sourceLocation)
        return nil
    } catch let error as AuthError {
        return error
    } catch {
        Issue.record("expected an AuthError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A browser that counts how often it is opened, then plays the user with a ``HeadlessUserAgent``.
final class CountingBrowser: WebAuthenticator, Sendable {
    private let opened = Locked(0)
    private let agent = HeadlessUserAgent()

    /// How many times the sign-in opened the browser.
    var openCount: Int { opened.withLock { $0 } }

    func authenticate(_ request: WebAuthenticationRequest) async throws(AuthError) -> URL {
        opened.withLock { $0 += 1 }
        return try await agent.authenticate(request)
    }
}

/// The query items of a recorded request as a dictionary; a repeated name is an issue.
func baseIdPQuery(_ request: RecordedRequest?, sourceLocation: SourceLocation = #_sourceLocation) -> [String: String] {
    var out: [String: String] = [:]
    for item in request?.queryItems ?? [] {
        #expect(out[item.name] == nil, "query item '\(item.name)' repeated", sourceLocation: sourceLocation)
        out[item.name] = item.value
    }
    return out
}

/// The claims of a `v4.public` token, read without verification (for checks in tests).
func baseIdPClaims(_ token: String) -> [String: Any]? {
    let parts = token.split(separator: ".")
    guard parts.count == 4, let body = Base64URL.decode(String(parts[2])), body.count > 64 else { return nil }
    return try? JSONSerialization.jsonObject(with: Data(body.dropLast(64))) as? [String: Any]
}
