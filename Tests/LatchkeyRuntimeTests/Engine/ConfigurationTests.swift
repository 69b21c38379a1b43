import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

@Suite("Engine: configuration validation")
struct EngineConfigurationTests {
    private func makeClient(
        _ values: [String: String], redirectURI: URL? = nil, environment: [String: String] = [:],
        spec: ProviderSpec = AcmeSpec.make(), transport: (any HTTPTransport)? = nil
    ) throws(AuthError) -> AuthClient {
        let defaults = ["baseURL": "https://acme.example/", "clientID": "acme-app", "apiKey": "pk_live_123"]
        return try AuthClient(
            provider: spec,
            configuration: ProviderConfiguration(
                values: defaults.merging(values) { _, new in new }, redirectURI: redirectURI),
            options: AuthClientOptions(
                transport: transport ?? URLSessionHTTPTransport(), store: InMemorySessionStore(),
                environment: { environment[$0] }))
    }

    /// An unsigned JWT with the given claims.
    private func jwt(_ claims: String) -> String {
        "eyJhbGciOiJIUzI1NiJ9." + Base64URL.encode(Array(claims.utf8)) + ".c2ln"
    }

    @Test("secret keys are refused with the rejection's code, before any request")
    func secretKeys() async throws {
        let server = try TestHTTPServer { _ in .json(["access_token": "x"]) }
        defer { server.stop() }
        for key in ["sk_secret_abc", jwt(#"{"role":"service_role","iss":"acme"}"#)] {
            do {
                _ = try makeClient(["baseURL": server.baseURL.absoluteString, "apiKey": key])
                Issue.record("expected secret_in_app for \(key.prefix(12))")
            } catch {
                #expect(error.code.rawValue == "secret_in_app")
                #expect(error.kind == .misconfigured)
                #expect(!error.description.contains(key))
            }
        }
        #expect(server.requests.isEmpty)
        _ = try makeClient(["apiKey": jwt(#"{"role":"anon"}"#)])
    }

    @Test(
        "bad inputs are invalid_configuration",
        arguments: [
            ["baseURL": "http://acme.example"], ["baseURL": "ftp://acme.example"], ["baseURL": "not a url"],
            ["clientID": "  "], ["baseURL": "https://acme.example?x=1"],
        ])
    func badInputs(values: [String: String]) throws {
        #expect(throws: AuthError.self) { try makeClient(values) }
        do { _ = try makeClient(values) } catch { #expect(error.code == .invalidConfiguration) }
    }

    @Test("loopback http is accepted, values are trimmed, and the environment fills a missing input")
    func acceptedInputs() async throws {
        let client = try makeClient(
            ["baseURL": " http://127.0.0.1:9/auth/// ", "apiKey": ""], environment: ["ACME_API_KEY": "pk_env"])
        #expect(client.provider.name == "acme")
        #expect(throws: AuthError.self) { try makeClient(["apiKey": ""]) }
    }

    @Test("redirect URIs must be of a kind the provider allows")
    func redirectKinds() throws {
        _ = try makeClient([:], redirectURI: URL(string: "dev.acme.app://cb")!)
        _ = try makeClient([:], redirectURI: URL(string: "http://127.0.0.1:8080/cb")!)
        for bad in ["https://acme.example/cb", "http://acme.example/cb", "dev.acme.app://cb#frag"] {
            do {
                _ = try makeClient([:], redirectURI: URL(string: bad)!)
                Issue.record("expected \(bad) to be refused")
            } catch {
                #expect(error.code == .invalidConfiguration)
            }
        }
    }

    @Test(
        "a scheme that belongs to browsers or the system is no custom scheme: refused as a redirect URI",
        arguments: [
            "javascript:alert(1)//cb", "data:text/html,callback", "file:///tmp/cb", "about:blank", "blob:cb",
            "vbscript:msgbox", "JavaScript://cb", "view-source:cb", "mailto:cb@example.com", "c:/Users/cb",
        ])
    func reservedSchemes(redirect: String) throws {
        let url = try #require(URL(string: redirect))
        let error = #expect(throws: AuthError.self) { try makeClient([:], redirectURI: url) }
        #expect(error?.code == .invalidConfiguration)
        let postLogout = #expect(throws: AuthError.self) {
            try AuthClient(
                provider: AcmeSpec.make(),
                configuration: ProviderConfiguration(
                    values: ["baseURL": "https://acme.example/", "clientID": "acme-app", "apiKey": "pk_live_123"],
                    redirectURIs: ["postLogout": url]),
                options: AuthClientOptions(store: InMemorySessionStore(), environment: { _ in nil }))
        }
        #expect(postLogout?.code == .invalidConfiguration)
    }

    @Test("app schemes stay accepted: reverse DNS, plain names, private-use RFC 8252 shapes")
    func appSchemes() throws {
        for redirect in ["com.example.app:/oauth2redirect", "dev.acme.app://cb", "myapp://cb", "fb123456://authorize"] {
            _ = try makeClient([:], redirectURI: URL(string: redirect)!)
        }
    }

    @Test("restore reads the store and sends nothing; a locked store is failed, not signed out")
    func restoreSendsNothing() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.server.resetRecording()
        let relaunched = try harness.makeClient()
        #expect(relaunched.state == .loading)
        #expect(await relaunched.restore().user?.id == "user-1")
        #expect(harness.server.requests.isEmpty)
        let locked = try harness.makeClient(store: LockedStore())
        let state = await locked.restore()
        guard case .failed(let error) = state else {
            Issue.record("expected failed, got \(state)")
            return
        }
        #expect(error.code == .storeUnavailable)
        #expect(locked.state != .signedOut)
        await expectAuthError(.storeUnavailable) { _ = try await locked.currentSession() }
        #expect(harness.server.requests.isEmpty)
    }
}
