import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("State: broadcasting and the observable model")
struct StateBroadcastTests {
    @Test("every subscriber first gets the current state, then each change")
    func subscribers() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        var early = harness.client.stateUpdates().makeAsyncIterator()
        #expect(await early.next() == .loading)
        await harness.client.restore()
        var second = harness.client.stateUpdates().makeAsyncIterator()
        #expect(await second.next() == .signedOut)
        #expect(await early.next() == .signedOut)
        try await harness.signIn()
        try await harness.client.signOut()
        for iterator in [early, second] {
            var copy = iterator
            #expect(await copy.next() == .authenticating)
            #expect(await copy.next()?.user?.id == "user-1")
            #expect(await copy.next() == .signedOut)
        }
    }

    @Test("AuthModel mirrors the client on the main actor")
    @MainActor
    func model() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let model = AuthModel(client: harness.client)
        #expect(model.state == .loading)
        try await harness.signIn()
        for _ in 0..<12_000 where !model.isSignedIn { try await Task.sleep(for: .milliseconds(5)) }
        #expect(model.user?.id == "user-1")
    }
}
