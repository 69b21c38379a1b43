import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Engine: discovery")
struct EngineDiscoveryTests {
    private static func openIDSpec(policy: ClientPolicy = ClientPolicy()) -> ProviderSpec {
        AcmeSpec.make(
            discovery: .openID(issuer: AcmeSpec.template("{baseURL}")), clientPolicy: policy,
            authorizeURL: AcmeSpec.template("{discovered.authorization_endpoint}"))
    }

    private static func document(_ harness: AcmeHarness, issuer: String? = nil) -> TestResponse {
        .json([
            "issuer": issuer ?? harness.server.baseURL.absoluteString,
            "authorization_endpoint": harness.server.baseURL.absoluteString + "/oauth/authorize",
            "token_endpoint": harness.server.baseURL.absoluteString + "/oauth/token",
            "confidential": false,
        ])
    }

    @Test("OpenID discovery is fetched once, checked, and feeds {discovered.NAME}")
    func openID() async throws {
        let harness = try AcmeHarness(spec: Self.openIDSpec())
        defer { harness.server.stop() }
        harness.backend.override("/.well-known/openid-configuration") { _ in Self.document(harness) }
        let values = try await harness.client.discover()
        #expect(values["token_endpoint"] == harness.server.baseURL.absoluteString + "/oauth/token")
        let request = try await harness.client.prepareAuthorization()
        #expect(request.url.path == "/oauth/authorize")
        _ = try await harness.client.discover()
        #expect(harness.server.requests.count == 1)
        #expect(harness.server.requests.first?.header("Accept") == "application/json")
    }

    @Test("RFC 8414 is the fallback when the OpenID document is missing")
    func fallback() async throws {
        let harness = try AcmeHarness(spec: Self.openIDSpec())
        defer { harness.server.stop() }
        harness.backend.override("/.well-known/oauth-authorization-server") { _ in Self.document(harness) }
        let values = try await harness.client.discover()
        #expect(values["issuer"] == harness.server.baseURL.absoluteString)
        #expect(
            harness.server.requests.map(\.path) == [
                "/.well-known/openid-configuration", "/.well-known/oauth-authorization-server",
            ])
    }

    @Test("another issuer is issuer_mismatch (the RFC 8414 document is not tried), and failures are not cached")
    func issuerMismatch() async throws {
        let harness = try AcmeHarness(spec: Self.openIDSpec())
        defer { harness.server.stop() }
        harness.backend.override("/.well-known/openid-configuration") { _ in
            Self.document(harness, issuer: "https://evil.example")
        }
        await expectAuthError(.issuerMismatch) { _ = try await harness.client.discover() }
        await expectAuthError(.issuerMismatch) { _ = try await harness.client.prepareAuthorization() }
        #expect(harness.server.requests.map(\.path) == Array(repeating: "/.well-known/openid-configuration", count: 2))
    }

    @Test("an RFC 8414 fallback document naming another issuer is issuer_mismatch too")
    func fallbackIssuerMismatch() async throws {
        let harness = try AcmeHarness(spec: Self.openIDSpec())
        defer { harness.server.stop() }
        harness.backend.override("/.well-known/oauth-authorization-server") { _ in
            Self.document(harness, issuer: "https://evil.example")
        }
        await expectAuthError(.issuerMismatch) { _ = try await harness.client.discover() }
    }

    @Test("a confidential client is refused before any browser opens")
    func confidential() async throws {
        let harness = try AcmeHarness(spec: Self.openIDSpec(policy: ClientPolicy(confidentialPointer: "/confidential")))
        defer { harness.server.stop() }
        harness.backend.override("/.well-known/openid-configuration") { _ in
            .json([
                "issuer": harness.server.baseURL.absoluteString, "authorization_endpoint": "https://a.example/x",
                "confidential": true,
            ])
        }
        let opened = ScriptedAuthenticator { _ throws(AuthError) in
            Issue.record("the browser must not open")
            return URL(string: "dev.acme.app://auth-callback")!
        }
        await expectAuthError(.confidentialClientInMobile) { try await harness.client.signInWithBrowser(using: opened) }
    }

    @Test("custom discovery takes the listed members")
    func custom() async throws {
        let spec = AcmeSpec.make(
            discovery: .custom(
                request: "config",
                members: [
                    .init(name: "authorize", pointer: "/endpoints/authorize"), .init(name: "ttl", pointer: "/ttl"),
                ]))
        let harness = try AcmeHarness(spec: spec)
        defer { harness.server.stop() }
        harness.backend.override("/client-config") { _ in
            .json(["endpoints": ["authorize": "https://a.example/auth"], "ttl": 60])
        }
        let values = try await harness.client.discover()
        #expect(values == ["authorize": "https://a.example/auth", "ttl": "60"])
        #expect(harness.server.requests.first?.header("apikey") == "pk_live_123")
    }
}
