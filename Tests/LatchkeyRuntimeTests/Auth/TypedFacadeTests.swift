import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The providers a router reported, in order.
final class RoutedProviders: Sendable {
    private let names = Locked<[String]>([])
    var all: [String] { names.withLock { $0 } }
    func record(_ name: String) { names.withLock { $0.append(name) } }
}

@Suite("Auth: registry, router and model take generated clients, not the engine")
struct TypedFacadeTests {
    @Test("the registry creates a typed client once per key, and finds it only under its own type")
    func registryKeepsTypedClients() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let registry = AuthRegistry()
        let counter = Counter()
        for _ in 0..<3 {
            let acme = try await registry.provider(forKey: "acme") { () throws(AuthError) in
                counter.increment()
                return AcmeClient(client: harness.client)
            }
            #expect(acme.client === harness.client)
        }
        #expect(counter.value == 1)
        #expect(await registry.provider(forKey: "acme", as: AcmeClient.self)?.client === harness.client)
        #expect(await registry.provider(forKey: "acme", as: BareClient.self) == nil)
        #expect(await registry.provider(forKey: "other", as: AcmeClient.self) == nil)
        #expect(await registry.allProviders.count == 1)
        #expect(harness.server.requests.isEmpty, "registering sends nothing")
    }

    @Test("a router over typed clients completes the matching sign-in with one token request, and no other")
    func routerOverTypedClients() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let other = AcmeClient(client: try harness.makeClient(store: InMemorySessionStore()))
        let acme = AcmeClient(client: harness.client)
        let routed = RoutedProviders()
        let router = CallbackRouter(providers: [other, acme]) { provider, result in
            let name = provider.client === acme.client ? "acme" : "other"
            routed.record((try? result.get()) == nil ? "\(name): failed" : name)
        }
        #expect(await !router.handle(URL(string: "dev.acme.app://auth-callback?code=x&state=y")!))
        #expect(harness.server.requests.isEmpty, "an unrelated callback sends nothing")

        let request = try await acme.prepareAuthorization()
        #expect(await router.handle(URL(string: "dev.acme.app://auth-callback?code=good-code&state=\(request.state)")!))
        #expect(routed.all == ["acme"])
        #expect(acme.state.isSignedIn)
        #expect(!other.state.isSignedIn)
        let tokenRequests = harness.requests("/oauth/token")
        #expect(tokenRequests.count == 1)
        #expect(tokenRequests.first?.method == "POST")
        #expect(tokenRequests.first?.formItems.contains { $0 == ("code", "good-code") } == true)
    }

    @Test("a router over a registry reaches the typed clients registered in it")
    func routerOverRegistry() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let registry = AuthRegistry()
        let acme = AcmeClient(client: harness.client)
        await registry.register(acme, forKey: "acme")
        let routed = RoutedProviders()
        let router = CallbackRouter(registry: registry) { provider, _ in
            routed.record(provider.client === acme.client ? "acme" : "other")
        }
        let request = try await acme.prepareAuthorization()
        #expect(await router.handle(URL(string: "dev.acme.app://auth-callback?code=good-code&state=\(request.state)")!))
        #expect(routed.all == ["acme"])
        #expect(harness.requests("/oauth/token").count == 1)
    }

    @Test("the model follows a typed client and signs in through it")
    @MainActor
    func modelOverTypedClient() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let acme = AcmeClient(client: harness.client)
        let model = AuthModel(acme) { client throws(AuthError) in
            try await client.signIn(identifier: "ada@example.com", password: "hunter2")
        }
        #expect(model.canSignIn)
        await model.signIn()
        #expect(model.lastError == nil)
        #expect(acme.state.isSignedIn)
        #expect(harness.requests("/token").count == 1)
    }
}
