import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The re-read of the store under the refresh lock: a newer session there is adopted (or refreshed in its turn
/// when it expired too), an older one (this client's own failed write) never replaces the session in memory.
@Suite("Reliability: the store is re-read before a refresh")
struct ReliabilityStoreRereadTests {
    @Test("a newer stored session is adopted without a request")
    func adoptsFreshNewerSession() async throws {
        let scratch = ScratchDirectory("reread")
        defer { scratch.remove() }
        let harness = try AcmeHarness(store: FileSessionStore(directory: scratch.url))
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.clock.advance(3600 + 1)
        let extensionClient = try harness.makeClient(store: FileSessionStore(directory: scratch.url))
        await extensionClient.restore()
        #expect(try await extensionClient.validAccessToken() == "at-2")
        #expect(try await harness.client.validAccessToken() == "at-2")
        #expect(harness.refreshRequests.map { $0.formBody["refresh_token"] } == ["rt-1"])
        #expect(await harness.client.cachedSession?.refreshToken == "rt-2")
        #expect(harness.logs.all.contains { $0.message.contains("Another process refreshed the session first") })
    }

    @Test("a newer stored session that expired too is refreshed with its own refresh token")
    func refreshesExpiredNewerSession() async throws {
        let scratch = ScratchDirectory("reread")
        defer { scratch.remove() }
        let harness = try AcmeHarness(store: FileSessionStore(directory: scratch.url))
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.clock.advance(3600 + 1)
        let extensionClient = try harness.makeClient(store: FileSessionStore(directory: scratch.url))
        await extensionClient.restore()
        #expect(try await extensionClient.validAccessToken() == "at-2")
        harness.clock.advance(3600 + 1)
        #expect(try await harness.client.validAccessToken() == "at-3")
        #expect(harness.refreshRequests.map { $0.formBody["refresh_token"] } == ["rt-1", "rt-2"])
        #expect(try await harness.storedSession()?["refreshToken"] as? String == "rt-3")
        #expect(harness.client.state.isSignedIn)
    }

    @Test("an older stored record (this client's failed write) never replaces the newer session in memory")
    func keepsNewerSessionOverOlderRecord() async throws {
        let store = SlowStore()
        let harness = try AcmeHarness(store: store)
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.clock.advance(3600 + 1)
        store.setFailsSaves(true)
        await expectAuthError(.storeFailed) { _ = try await harness.client.validAccessToken() }
        #expect(try await harness.storedSession()?["refreshToken"] as? String == "rt-1")
        #expect(await harness.client.cachedSession?.refreshToken == "rt-2")
        store.setFailsSaves(false)
        harness.clock.advance(3600 + 1)
        #expect(try await harness.client.validAccessToken() == "at-3")
        #expect(harness.refreshRequests.map { $0.formBody["refresh_token"] } == ["rt-1", "rt-2"])
        #expect(try await harness.storedSession()?["refreshToken"] as? String == "rt-3")
    }
}
