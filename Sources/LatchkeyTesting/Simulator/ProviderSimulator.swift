import Foundation
import LatchkeyRuntime
import Synchronization

/// A fake identity provider driven by a descriptor's ``ProviderSpec``, on a local ``TestHTTPServer``.
///
/// It reads the spec to learn which path is which request and which parameter names carry the code,
/// the verifier, the refresh token, the identifier and the password, so the same simulator serves any
/// descriptor: discovery (OpenID or custom), an authorize endpoint that signs the user in at once
/// (`login_hint=deny` or `deny=1` denies), code exchange with PKCE S256 and one-time codes, password
/// grants, refresh-token rotation with reuse detection, user documents, sign-out and `/protected`.
public final class ProviderSimulator: Sendable {
    /// The provider.
    public let provider: ProviderSpec
    /// The simulator's base URL, `http://127.0.0.1:PORT` (also the issuer of URL-configured providers).
    public let issuer: URL
    /// The issuer the provider's spec expects (its rendered issuer template); usually ``issuer``.
    public let expectedIssuer: String
    /// Suggested input values: URL inputs point at the simulator, other inputs are `demo-client`.
    public let configurationValues: [String: String]
    /// The accounts.
    public let users: [SimulatedUser]

    private let server: TestHTTPServer
    private let core: SimulatorCore

    /// Starts a simulator.
    /// - Parameters:
    ///   - provider: The provider spec (a generated client's `provider`).
    ///   - users: The accounts (default: ``SimulatedUser/demo``); the first signs in through the browser.
    /// - Throws: ``TestServerError`` or ``TestSignerError`` when the server or the signing key cannot be made.
    public init(provider: ProviderSpec, users: [SimulatedUser] = [.demo]) throws {
        let core = SimulatorCore(provider: provider, users: users, signer: try TestSigner(.rsa(bits: 2048)))
        let server = try TestHTTPServer { request in await core.handle(request) }
        var values: [String: String] = [:]
        for input in provider.inputs {
            values[input.name] = input.kind == .url ? server.baseURL.absoluteString : "demo-client"
        }
        let routes = SimulatorRoutes(provider: provider, base: server.baseURL, inputs: values)
        core.install(routes)
        self.provider = provider
        self.users = users
        self.server = server
        self.core = core
        self.issuer = server.baseURL
        self.expectedIssuer = routes.issuer
        self.configurationValues = values
    }

    deinit {
        server.stop()
    }

    /// The requests received so far, in arrival order.
    public var requests: [RecordedRequest] { server.requests }

    /// Forgets the recorded requests.
    public func resetRecording() { server.resetRecording() }

    /// A URL on the simulator.
    public func url(_ pathAndQuery: String) -> URL { server.url(pathAndQuery) }

    /// The demo resource: `GET` with a current bearer token answers `{"message": "Hello, <name>"}`.
    public var protectedURL: URL { server.url("/protected") }

    /// A transport that sends every request to the simulator whatever its host, for descriptors whose
    /// URLs are fixed hosts (`https://fidm.{dataCenter}/...`).
    public var transport: any HTTPTransport {
        SimulatorTransport(base: server.baseURL, inner: URLSessionTransport())
    }

    /// A configuration for the runtime client with ``configurationValues``.
    /// - Parameter redirectURI: The redirect URI of browser sign-ins.
    public func configuration(redirectURI: URL? = nil) -> ProviderConfiguration {
        ProviderConfiguration(values: configurationValues, redirectURI: redirectURI)
    }

    /// The next request (to `path`, or to any path when `nil`) is answered with `response` instead.
    public func failNext(_ response: TestResponse, path: String? = nil) {
        core.ledger.withLock { $0.faults.append((path, response)) }
    }

    /// Revokes every token issued so far (the next refresh or user request fails).
    public func revokeAllTokens() {
        core.ledger.withLock { ledger in
            for grant in ledger.accessTokens.values { ledger.revokedFamilies.insert(grant.family) }
        }
    }

    /// Closes the port. Idempotent.
    public func stop() { server.stop() }
}
