import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// A value shared with the server's `@Sendable` handler.
final class EndSessionBox<Value: Sendable>: Sendable {
    private let storage: Locked<Value>
    init(_ value: Value) { storage = Locked(value) }
    func withLock<T>(_ body: (inout Value) -> T) -> T { storage.withLock { body(&$0) } }
}

/// An OpenID-shaped provider on 127.0.0.1: discovery (with or without `end_session_endpoint`), a password
/// token endpoint issuing an ID token, and an end-session endpoint that redirects to the post-logout URI.
final class EndSessionProvider: Sendable {
    let server: TestHTTPServer
    /// The state the end-session endpoint sends back instead of the one it received, if any.
    let forgedState: EndSessionBox<String?>

    init(listsEndSession: Bool = true) throws {
        let forged = EndSessionBox<String?>(nil)
        forgedState = forged
        server = try TestHTTPServer { request in
            let base = "http://" + (request.header("Host") ?? "127.0.0.1")
            switch (request.method, request.path) {
            case ("GET", "/.well-known/openid-configuration"):
                var document = ["issuer": base, "token_endpoint": base + "/token"]
                if listsEndSession { document["end_session_endpoint"] = base + "/logout" }
                return .json(document)
            case ("POST", "/token"):
                return .json([
                    "access_token": "at-1", "refresh_token": "rt-1", "id_token": "idt-1", "token_type": "Bearer",
                    "expires_in": 3600,
                ])
            case ("GET", "/logout"):
                guard let target = request.query("post_logout_redirect_uri") else { return .redirect(to: "/") }
                let state = forged.withLock { $0 } ?? request.query("state") ?? ""
                return .redirect(to: target + "?state=" + state)
            default:
                return .json(["error": "not_found"], status: 404)
            }
        }
    }

    deinit { server.stop() }

    func requests(_ path: String) -> [RecordedRequest] { server.requests.filter { $0.path == path } }
}

struct EndSessionHarness {
    static let logoutRedirect = URL(string: "dev.acme.app://logout-callback")!

    let provider: EndSessionProvider
    let store = InMemorySessionStore()
    let client: AuthClient

    init(
        _ provider: EndSessionProvider, redirectURIs: [String: URL] = ["postLogout": logoutRedirect],
        loopbackPages: LoopbackPages = .standard
    ) throws {
        self.provider = provider
        let spec = ProviderSpec(
            name: "op", displayName: "OP",
            inputs: [InputSpec(name: "issuer", kind: .url), InputSpec(name: "clientID")],
            discovery: .openID(issuer: "{issuer}"),
            requests: [
                "password": RequestSpec(
                    method: "POST", url: "{discovered.token_endpoint}", encoding: .form,
                    body: [
                        ParameterSpec("grant_type", .string("password")),
                        ParameterSpec("username", .string("{username}")),
                        ParameterSpec("password", .string("{password}")),
                    ], response: .session)
            ],
            flows: FlowSet(
                password: PasswordFlowSpec(request: "password"),
                endSession: EndSessionFlowSpec(
                    url: "{discovered.end_session_endpoint}",
                    query: [
                        ParameterSpec("id_token_hint", .string("{id_token}")),
                        ParameterSpec("post_logout_redirect_uri", .string("{post_logout_redirect_uri}")),
                        ParameterSpec("client_id", .string("{clientID}")),
                        ParameterSpec("state", .string("{state}")),
                    ])),
            callback: CallbackSpec(allowedRedirectKinds: [.customScheme, .loopback]))
        var options = AuthClientOptions(transport: URLSessionHTTPTransport(), store: store, environment: { _ in nil })
        options.loopbackPages = loopbackPages
        client = try AuthClient(
            provider: spec,
            configuration: ProviderConfiguration(
                values: ["issuer": provider.server.baseURL.absoluteString, "clientID": "app-1"],
                redirectURIs: redirectURIs),
            options: options)
    }

    /// Signs in (one token request) and checks the session is stored.
    func signIn() async throws {
        let session = try await client.signIn(username: "ada", password: "pw")
        #expect(session.idToken == "idt-1")
        #expect(store.keys.contains(client.storeKey))
    }

    func expectSignedOut() async {
        #expect(await client.cachedSession == nil)
        #expect(client.state == .signedOut)
        #expect(!store.keys.contains(client.storeKey))
    }
}

@Suite("Engine: RP-initiated logout (end_session_endpoint)")
struct EndSessionTests {
    @Test("the logout URL carries id_token_hint, post_logout_redirect_uri, client_id and a random state")
    func prepare() async throws {
        let harness = try EndSessionHarness(EndSessionProvider())
        try await harness.signIn()
        let request = try await harness.client.prepareEndSession()
        #expect(request.url.path == "/logout")
        #expect(request.url.host == "127.0.0.1")
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.map(\.name) == ["id_token_hint", "post_logout_redirect_uri", "client_id", "state"])
        let query = Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
        #expect(query["id_token_hint"] == "idt-1")
        #expect(query["post_logout_redirect_uri"] == EndSessionHarness.logoutRedirect.absoluteString)
        #expect(query["client_id"] == "app-1")
        #expect(query["state"] == request.state)
        #expect(request.state.count >= 43)
        #expect(request.postLogoutRedirectURI == EndSessionHarness.logoutRedirect)
        // The local session is over at once; the runtime itself sends nothing to the logout endpoint.
        await harness.expectSignedOut()
        #expect(harness.provider.requests("/logout").isEmpty)
        let again = try await harness.client.prepareEndSession()
        #expect(again.state != request.state)
        #expect(again.url.absoluteString.contains("id_token_hint") == false, "no ID token once signed out")
    }

    @Test("through a browser: the provider redirects back with the state; checked; signed out")
    func browser() async throws {
        let harness = try EndSessionHarness(EndSessionProvider())
        try await harness.signIn()
        try await harness.client.endSession(using: HeadlessUserAgent())
        let logout = try #require(harness.provider.requests("/logout").first)
        #expect(logout.method == "GET")
        #expect(logout.query("id_token_hint") == "idt-1")
        #expect(logout.query("client_id") == "app-1")
        #expect(logout.query("post_logout_redirect_uri") == EndSessionHarness.logoutRedirect.absoluteString)
        #expect(logout.query("state")?.isEmpty == false)
        await harness.expectSignedOut()
    }

    @Test("a different state coming back is state_mismatch; the local session is ended anyway")
    func stateMismatch() async throws {
        let provider = try EndSessionProvider()
        provider.forgedState.withLock { $0 = "forged-state" }
        let harness = try EndSessionHarness(provider)
        try await harness.signIn()
        await expectAuthError(.stateMismatch) { try await harness.client.endSession(using: HeadlessUserAgent()) }
        #expect(harness.provider.requests("/logout").count == 1)
        await harness.expectSignedOut()
    }

    @Test("a callback to another URI is redirect_mismatch; a missing state is state_mismatch")
    func callbackChecks() async throws {
        let harness = try EndSessionHarness(EndSessionProvider())
        try await harness.signIn()
        let request = try await harness.client.prepareEndSession()
        await expectAuthError(.redirectMismatch) {
            try await harness.client.completeEndSession(
                request, callbackURL: URL(string: "dev.acme.app://elsewhere?state=\(request.state)")!)
        }
        await expectAuthError(.stateMismatch) {
            try await harness.client.completeEndSession(request, callbackURL: EndSessionHarness.logoutRedirect)
        }
        try await harness.client.completeEndSession(
            request,
            callbackURL: URL(string: EndSessionHarness.logoutRedirect.absoluteString + "?state=" + request.state)!)
    }

    @Test("a cancelled browser step still ends the local session")
    func cancelled() async throws {
        let harness = try EndSessionHarness(EndSessionProvider())
        try await harness.signIn()
        let cancelling = ScriptedAuthenticator { request throws(AuthError) in
            #expect(request.redirectURI == EndSessionHarness.logoutRedirect)
            #expect(request.callbackScheme == "dev.acme.app")
            throw AuthError(.loginCancelled, "closed")
        }
        await expectAuthError(.loginCancelled) { try await harness.client.endSession(using: cancelling) }
        await harness.expectSignedOut()
        #expect(harness.provider.requests("/logout").isEmpty)
    }

    @Test("no end_session_endpoint, or no post-logout redirect: invalid_configuration, signed out all the same")
    func misconfigured() async throws {
        let harness = try EndSessionHarness(EndSessionProvider(listsEndSession: false))
        try await harness.signIn()
        await expectAuthError(.invalidConfiguration) { try await harness.client.endSession(using: HeadlessUserAgent()) }
        await harness.expectSignedOut()

        let noRedirect = try EndSessionHarness(EndSessionProvider(), redirectURIs: [:])
        try await noRedirect.signIn()
        let opened = ScriptedAuthenticator { _ throws(AuthError) in
            Issue.record("the browser must not open")
            return EndSessionHarness.logoutRedirect
        }
        await expectAuthError(.invalidConfiguration) { try await noRedirect.client.endSession(using: opened) }
        await noRedirect.expectSignedOut()
        // Without a redirect the URL can still be built for the app to open; nothing comes back.
        let request = try await noRedirect.client.prepareEndSession()
        #expect(request.postLogoutRedirectURI == nil)
        #expect(request.url.query?.contains("post_logout_redirect_uri") == false)
    }

    @Test("a post-logout redirect URI other than the configured one is refused; the local session ends anyway")
    func unconfiguredPostLogoutRedirect() async throws {
        let harness = try EndSessionHarness(EndSessionProvider())
        try await harness.signIn()
        for other in ["dev.acme.app://elsewhere", "javascript:alert(1)//logout", "dev.acme.app://logout-callback/x"] {
            await expectAuthError(.invalidConfiguration) {
                _ = try await harness.client.prepareEndSession(postLogoutRedirectURI: URL(string: other)!)
            }
        }
        await harness.expectSignedOut()
        let request = try await harness.client.prepareEndSession(
            postLogoutRedirectURI: EndSessionHarness.logoutRedirect)
        #expect(request.postLogoutRedirectURI == EndSessionHarness.logoutRedirect)

        let unconfigured = try EndSessionHarness(EndSessionProvider(), redirectURIs: [:])
        await expectAuthError(.invalidConfiguration) {
            _ = try await unconfigured.client.prepareEndSession(postLogoutRedirectURI: EndSessionHarness.logoutRedirect)
        }
        #expect(unconfigured.provider.server.requests.isEmpty)
    }
}
