import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Observation
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

    @Test("AuthModel mirrors the client on the main actor", timeLimit(minutes: 1))
    @MainActor
    func model() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let model = AuthModel(client: harness.client)
        #expect(model.state == .loading)
        try await harness.signIn()
        await Self.waitUntil(model) { $0.isSignedIn }
        #expect(model.user?.id == "user-1")
    }

    /// Returns once `condition` holds for the model, waking on the model's observed changes instead of polling
    /// (or when the task is cancelled by the time limit).
    @MainActor
    private static func waitUntil(_ model: AuthModel, _ condition: @MainActor (AuthModel) -> Bool) async {
        while !Task.isCancelled {
            let changed = Gate()
            let holds = withObservationTracking {
                condition(model)
            } onChange: {
                changed.raise()
            }
            if holds { return }
            await changed.wait()
        }
    }
}
