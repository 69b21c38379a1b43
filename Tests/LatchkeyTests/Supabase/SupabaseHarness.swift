import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The app's redirect URIs in these tests.
enum SupabaseAppURLs {
    /// OAuth sign-ins come back here.
    static let callback = URL(string: "dev.example.app://auth-callback")!
    /// Password-recovery links come back here.
    static let recovery = URL(string: "dev.example.app://password-recovery")!
}

/// A GoTrue server and a private directory for a ``FileSessionStore``, with clients over both.
struct SupabaseHarness: Sendable {
    let gotrue: GoTrueServer
    let directory: URL

    /// The store every client of the harness shares (a relaunched app reads the same files).
    var store: FileSessionStore { FileSessionStore(directory: directory) }

    /// A client made with the generated initializer, as an app makes it.
    /// - Parameters:
    ///   - projectURL: The project URL text (default: the server's, with a trailing slash to trim).
    ///   - publishableKey: The key (default: the one the gateway accepts).
    ///   - store: The store (default: the harness's file store).
    func makeClient(
        projectURL: String? = nil, publishableKey: String = GoTrueServer.publishableKey,
        store: (any SessionStore)? = nil
    ) throws(AuthError) -> SupabaseClient {
        try SupabaseClient(
            projectURL: URL(string: projectURL ?? gotrue.projectURL.absoluteString + "/")!,
            publishableKey: publishableKey, redirectURI: SupabaseAppURLs.callback,
            options: options(store: store ?? self.store))
    }

    /// Adds an account, signs it in with a new client and forgets what the server recorded so far.
    /// - Returns: The signed-in client and its session.
    func signedIn(email: String, password: String) async throws -> (SupabaseClient, Session) {
        gotrue.addUser(email: email, password: password)
        let supabase = try makeClient()
        let session = try await supabase.signIn(email: email, password: password)
        gotrue.resetRecording()
        return (supabase, session)
    }

    /// A client over the runtime's initializer, for what the generated one does not take: more redirect URIs,
    /// or a changed spec (e.g. without `X-Supabase-Api-Version`, to get GoTrue's older error shape).
    func makeClient(
        redirectURIs: [String: URL], spec: ProviderSpec = SupabaseClient.provider, store: (any SessionStore)? = nil,
        logger: (@Sendable (LogRecord) -> Void)? = nil
    ) throws(AuthError) -> SupabaseClient {
        let configuration = ProviderConfiguration(
            values: ["projectURL": gotrue.projectURL.absoluteString, "publishableKey": GoTrueServer.publishableKey],
            redirectURI: SupabaseAppURLs.callback, redirectURIs: redirectURIs)
        return SupabaseClient(
            client: try AuthClient(
                provider: spec, configuration: configuration,
                options: options(store: store ?? self.store, logger: logger)))
    }

    func options(store: any SessionStore, logger: (@Sendable (LogRecord) -> Void)? = nil) -> AuthClientOptions {
        AuthClientOptions(
            transport: URLSessionHTTPTransport(), store: store, logger: logger, userAgent: "LatchkeyTests/Supabase",
            environment: { _ in nil })
    }

    /// The store key of the session of a client made by ``makeClient(redirectURIs:spec:store:logger:)``.
    var sessionKey: String {
        get throws { try makeClient().client.storeKey }
    }

    /// The stored session record, or `nil`.
    func storedSession() async throws -> [String: Any]? {
        guard let data = try await store.load(key: try sessionKey) else { return nil }
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["session"] as? [String: Any]
    }

    /// The stored pending sign-ins, or `nil`.
    func storedPending() async throws -> [[String: Any]]? {
        guard let data = try await store.load(key: try sessionKey + ".pending") else { return nil }
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["pending"] as? [[String: Any]]
    }

    /// Whether the store holds nothing at all for the client (no session, no pending sign-in).
    func storeIsEmpty() async throws -> Bool {
        let session = try await store.load(key: try sessionKey)
        let pending = try await store.load(key: try sessionKey + ".pending")
        return session == nil && pending == nil
    }
}

/// Runs a test against a fresh GoTrue server and file store, and always stops the server (off the
/// cooperative pool) and removes the directory afterwards.
func withSupabase(autoconfirm: Bool = true, _ body: (SupabaseHarness) async throws -> Void) async throws {
    let gotrue = try GoTrueServer(autoconfirm: autoconfirm)
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("latchkey-supabase-\(UUID().uuidString)", isDirectory: true)
    let harness = SupabaseHarness(gotrue: gotrue, directory: directory)
    do {
        try await body(harness)
    } catch {
        await gotrue.shutdown()
        try? FileManager.default.removeItem(at: directory)
        throw error
    }
    await gotrue.shutdown()
    try? FileManager.default.removeItem(at: directory)
}

// MARK: - Wire assertions

/// The query of a recorded request as a dictionary (a repeated name is an issue).
func goTrueQuery(_ request: RecordedRequest, sourceLocation: SourceLocation = #_sourceLocation) -> [String: String] {
    var out: [String: String] = [:]
    for item in request.queryItems {
        #expect(out[item.name] == nil, "query item '\(item.name)' repeated", sourceLocation: sourceLocation)
        out[item.name] = item.value
    }
    return out
}

/// Checks one request as GoTrue's gateway and handler see it: method, path, query, the headers every
/// request carries (`apikey`, `X-Supabase-Api-Version`), `Authorization`, `Content-Type`, and the JSON body
/// compared as parsed JSON.
/// - Parameters:
///   - bearer: The expected access token, or `nil` when no `Authorization` may be sent.
///   - body: The expected JSON object, or `nil` when there must be no body.
func expectGoTrueRequest(
    _ request: RecordedRequest?, _ method: String, _ route: String, query: [String: String] = [:],
    bearer: String? = nil, body: [String: Any]? = nil, apiVersion: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let request else {
        Issue.record("no \(method) \(route) request was sent", sourceLocation: sourceLocation)
        return
    }
    #expect(request.method == method, sourceLocation: sourceLocation)
    #expect(request.path == "/auth/v1" + route, sourceLocation: sourceLocation)
    #expect(goTrueQuery(request, sourceLocation: sourceLocation) == query, sourceLocation: sourceLocation)
    #expect(request.headerValues("apikey") == [GoTrueServer.publishableKey], sourceLocation: sourceLocation)
    #expect(
        request.headerValues("X-Supabase-Api-Version") == (apiVersion ? ["2024-01-01"] : []),
        sourceLocation: sourceLocation)
    #expect(
        request.headerValues("Authorization") == (bearer.map { ["Bearer " + $0] } ?? []), sourceLocation: sourceLocation
    )
    if let body {
        #expect(request.headerValues("Content-Type") == ["application/json"], sourceLocation: sourceLocation)
        let parsed = request.jsonBody as? NSDictionary
        #expect(
            parsed == (body as NSDictionary), "body \(request.bodyText ?? "<binary>")", sourceLocation: sourceLocation)
    } else {
        #expect(request.headerValues("Content-Type") == [], sourceLocation: sourceLocation)
        #expect(request.body.isEmpty, sourceLocation: sourceLocation)
    }
}

/// Runs `work`, which must throw an ``AuthError``, and returns it.
func caughtAuthError(
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

extension URL {
    /// The query and fragment items of a URL, for checks.
    var supabaseQueryItems: [String: String] {
        let items = URLComponents(url: self, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }
}
