import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// What a generated client for ``AcmeSpec`` looks like.
struct AcmeClient: PasswordSignInProviding, BrowserSignInProviding, RefreshProviding, SignOutProviding {
    let client: AuthClient
}

/// A generated client whose descriptor declares no flows.
struct BareClient: AuthProviderClient {
    let client: AuthClient
}

@Suite("Auth: facade, registry and callback router")
struct AuthFacadeTests {
    @Test("the facade signs in through the capability and exposes state and tokens")
    func facade() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let auth = Auth(AcmeClient(client: harness.client))
        #expect(await auth.restore() == .signedOut)
        let session = try await auth.signIn(email: "ada@example.com", password: "hunter2")
        #expect(try await auth.validAccessToken() == session.accessToken)
        #expect(auth.state.isSignedIn)
        try await auth.signOut()
        #expect(auth.state == .signedOut)
        #expect(harness.requests("/token").first?.jsonBody as? NSDictionary != nil)
        let bare = Auth(BareClient(client: harness.client))
        #expect(bare.state == .signedOut)
    }

    @Test("the registry creates a client once per key")
    func registry() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let registry = AuthRegistry()
        let counter = Counter()
        for _ in 0..<3 {
            let client = try await registry.client(forKey: "acme") { () throws(AuthError) -> AuthClient in
                counter.increment()
                return harness.client
            }
            #expect(client === harness.client)
        }
        #expect(counter.value == 1)
        #expect(await registry.client(forKey: "other") == nil)
    }

    @Test("the router hands a callback to the client with the matching pending flow, and ignores others")
    func router() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let other = try harness.makeClient(store: InMemorySessionStore())
        let router = CallbackRouter(clients: [other, harness.client])
        #expect(await !router.handle(URL(string: "https://unrelated.example/path?code=x")!))
        #expect(await !router.handle(URL(string: "dev.acme.app://auth-callback?code=x&state=y")!))
        #expect(harness.server.requests.isEmpty)
        let request = try await harness.client.prepareAuthorization()
        #expect(await router.handle(URL(string: "dev.acme.app://auth-callback?code=good-code&state=\(request.state)")!))
        #expect(harness.client.state.isSignedIn)
        #expect(other.state != harness.client.state)
    }
}

/// Counts calls.
final class Counter: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
