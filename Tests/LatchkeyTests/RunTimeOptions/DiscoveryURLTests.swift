import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The generic OpenID descriptor's `discoveryURL` (`discovery.url`): a provider whose document is not at
/// `{issuer}/.well-known/openid-configuration` is discovered from the configured URL, and the document's
/// `issuer` must still equal the configured issuer.
@Suite("Explicit discovery document URL")
struct DiscoveryURLTests {
    static let documentPath = "/tenants/acme/openid-metadata"

    static func client(_ op: AdversarialOP, discoveryURL: URL?) throws(AuthError) -> OidcClient {
        let clock = op.clock
        return try OidcClient(
            issuer: op.server.baseURL, clientID: AdversarialOP.clientID, discoveryURL: discoveryURL,
            redirectURI: AdversarialOP.redirectURI,
            options: AuthClientOptions(
                transport: URLSessionHTTPTransport(), store: InMemorySessionStore(), now: { clock.now },
                environment: { _ in nil }, sleep: { _ in }))
    }

    @Test("the document is read from the configured URL alone, and the sign-in completes against it")
    func signInThroughExplicitDocument() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.discoveryPath = Self.documentPath }
            let oidc = try Self.client(op, discoveryURL: op.server.url(Self.documentPath))
            let request = try await oidc.client.prepareAuthorization()
            let callback = try await HeadlessUserAgent().follow(request.url, until: request.redirectURI)
            let session = try await oidc.client.handleCallback(callback)
            #expect(session.user?.id == AdversarialOP.subject)
            #expect(op.requests(Self.documentPath).count == 1)
            #expect(
                !op.paths.contains { $0.hasPrefix("/.well-known/") },
                "no well-known location is tried: \(op.paths)")
        }
    }

    @Test("a document at the configured URL naming another issuer is issuer_mismatch, and nothing else is asked")
    func issuerStillChecked() async throws {
        try await AdversarialOP.run { op in
            op.behave {
                $0.discoveryPath = Self.documentPath
                $0.discovery = { $0["issuer"] = "https://evil.example" }
            }
            let oidc = try Self.client(op, discoveryURL: op.server.url(Self.documentPath))
            let error = await #expect(throws: AuthError.self) { try await oidc.client.prepareAuthorization() }
            #expect(error?.code == .issuerMismatch)
            #expect(op.paths == [Self.documentPath])
        }
    }

    @Test("without a discovery URL the well-known location is read as before")
    func defaultLocation() async throws {
        try await AdversarialOP.run { op in
            let oidc = try Self.client(op, discoveryURL: nil)
            _ = try await oidc.client.discover()
            #expect(op.paths == ["/.well-known/openid-configuration"])
        }
    }

    @Test(
        "a discovery URL that is not https (or loopback http) is refused at creation, with no request",
        arguments: ["http://idp.example/.well-known/openid-configuration", "ftp://127.0.0.1/metadata"])
    func insecureURLRefused(url: String) throws {
        let error = #expect(throws: AuthError.self) {
            try OidcClient(
                issuer: URL(string: "https://idp.example")!, clientID: "client", discoveryURL: URL(string: url)!,
                options: AuthClientOptions(transport: NoRequestTransport(), environment: { _ in nil }))
        }
        #expect(error?.code == .invalidConfiguration)
    }
}
