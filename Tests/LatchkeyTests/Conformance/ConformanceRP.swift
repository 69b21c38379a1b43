import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The relying party under test: the generated `OidcClient` against an ``AdversarialOP``, on the
/// provider's clock, with a custom-scheme redirect URI and a post-logout redirect URI.
struct ConformanceRP {
    let op: AdversarialOP
    let store: InMemorySessionStore
    let oidc: OidcClient
    let agent = HeadlessUserAgent()

    var client: AuthClient { oidc.client }

    init(_ op: AdversarialOP, store: InMemorySessionStore = InMemorySessionStore()) throws {
        self.op = op
        self.store = store
        oidc = try Self.client(op, store: store)
    }

    /// Another client on the same provider and store (a relaunch).
    func relaunched() throws -> OidcClient { try Self.client(op, store: store) }

    private static func client(_ op: AdversarialOP, store: InMemorySessionStore) throws -> OidcClient {
        let clock = op.clock
        return try OidcClient(
            issuer: op.server.baseURL, clientID: AdversarialOP.clientID, redirectURI: AdversarialOP.redirectURI,
            redirectURIs: [EndSessionFlowSpec.redirectPurpose: AdversarialOP.postLogoutRedirectURI],
            options: AuthClientOptions(
                transport: URLSessionHTTPTransport(), store: store, now: { clock.now }, environment: { _ in nil },
                sleep: { _ in }))
    }

    /// The browser part of a sign-in: prepares it and follows the provider to the callback URL.
    func callback(maxAge: Int? = nil) async throws -> URL {
        let request = try await client.prepareAuthorization(maxAge: maxAge)
        return try await agent.follow(request.url, until: request.redirectURI)
    }

    /// A whole browser sign-in.
    @discardableResult
    func signIn(maxAge: Int? = nil) async throws -> Session {
        try await client.handleCallback(try await callback(maxAge: maxAge))
    }

    /// Expects a sign-in to succeed as the provider's subject.
    func expectSignIn(maxAge: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let session = try await signIn(maxAge: maxAge)
        #expect(session.user?.id == AdversarialOP.subject, sourceLocation: sourceLocation)
    }

    /// Expects a sign-in to fail with `code`, after which nobody is signed in, nothing is stored, and the
    /// user-info endpoint was never asked.
    @discardableResult
    func expectRejectedSignIn(
        _ code: AuthError.Code, maxAge: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> AuthError? {
        let callback = try await callback(maxAge: maxAge)
        let userInfoRequests = op.requests("/userinfo").count
        let error = await #expect(throws: AuthError.self, sourceLocation: sourceLocation) {
            try await client.handleCallback(callback)
        }
        #expect(
            error?.code == code, "got \(error.map(String.init(describing:)) ?? "nothing")",
            sourceLocation: sourceLocation)
        try await expectSignedOut(sourceLocation: sourceLocation)
        #expect(
            op.requests("/userinfo").count == userInfoRequests, "the user-info endpoint was asked",
            sourceLocation: sourceLocation)
        return error
    }

    /// Expects nobody signed in, in memory and in the store.
    func expectSignedOut(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(await client.cachedSession == nil, sourceLocation: sourceLocation)
        #expect(client.state.user == nil, sourceLocation: sourceLocation)
        let relaunched = try relaunched()
        #expect(await relaunched.client.restore() == .signedOut, sourceLocation: sourceLocation)
    }
}
