import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Reads a token stream as it comes, recording each value's access token (`"nil"` for no session), so that a
/// test can wait for a value without hanging when it never comes (the test's time limit ends the wait).
private final class TokenRecorder: Sendable {
    private let list = Watched<[String]>([])
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<Session?>) {
        let list = self.list
        task = Task {
            for await session in stream { list.update { $0.append(session?.accessToken ?? "nil") } }
        }
    }

    /// The values once there are `count` of them (waiting for the stream, not polling), or those there are when
    /// the waiting task is cancelled.
    func values(count: Int) async -> [String] {
        await list.wait { $0.count >= count }
    }

    deinit { task.cancel() }
}

@Suite("State: observeTokens yields every change of the tokens", timeLimit(minutes: 1))
struct ObserveTokensTests {
    @Test("nil once restored, then the sign-in, every refresh (the state does not change), nil at sign-out")
    func everyChange() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let tokens = TokenRecorder(harness.client.observeTokens())
        var states = harness.client.stateUpdates().makeAsyncIterator()
        #expect(await states.next() == .loading)
        #expect(await tokens.values(count: 0) == [])
        await harness.client.restore()
        #expect(await tokens.values(count: 1) == ["nil"])
        try await harness.signIn()
        #expect(await tokens.values(count: 2) == ["nil", "at-1"])
        _ = try await harness.client.currentSession(forceRefresh: true)
        #expect(await tokens.values(count: 3) == ["nil", "at-1", "at-2"])
        harness.clock.advance(4000)
        #expect(try await harness.client.validAccessToken() == "at-3")
        #expect(await tokens.values(count: 4) == ["nil", "at-1", "at-2", "at-3"])
        try await harness.client.signOut()
        #expect(await tokens.values(count: 5) == ["nil", "at-1", "at-2", "at-3", "nil"])
        // The refreshes changed no state: signedOut, authenticating, signedIn once, signedOut.
        #expect(await states.next() == .signedOut)
        #expect(await states.next() == .authenticating)
        #expect(await states.next()?.user?.id == "user-1")
        #expect(await states.next() == .signedOut)
        #expect(harness.refreshRequests.count == 2)
    }

    @Test("a late subscriber gets the current session first; a slow one only the latest value, never a stale one")
    func latestOnly() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        var late = harness.client.observeTokens().makeAsyncIterator()
        #expect(await late.next()??.accessToken == "at-1")
        let slow = harness.client.observeTokens()
        _ = try await harness.client.currentSession(forceRefresh: true)
        try await harness.client.signOut()
        var iterator = slow.makeAsyncIterator()
        #expect(await iterator.next() == .some(nil))
        #expect(await late.next() == .some(nil))
    }

    @Test("a refresh answering after a sign-out yields nothing after the nil")
    func noStaleValueAfterSignOut() async throws {
        let harness = try AcmeHarness(spec: AcmeSpec.make(signOutRequest: nil))
        defer { harness.server.stop() }
        try await harness.signIn()
        let tokens = TokenRecorder(harness.client.observeTokens())
        #expect(await tokens.values(count: 1) == ["at-1"])
        let held = HeldRoute()
        let backend = harness.backend
        backend.override("/oauth/token") { _ in
            await held.hold()
            return backend.tokens(rotating: "rt-1")
        }
        let client = harness.client
        let refresh = Task { try await client.currentSession(forceRefresh: true) }
        await held.arrived()
        try await client.signOut()
        #expect(await tokens.values(count: 2) == ["at-1", "nil"])
        held.release()
        _ = await refresh.result
        backend.override("/oauth/token") { _ in backend.tokens(rotating: nil) }
        try await harness.signIn()
        // The next value is the new sign-in's (at-3), never the discarded refresh's (at-2).
        #expect(await tokens.values(count: 3) == ["at-1", "nil", "at-3"])
    }
}
