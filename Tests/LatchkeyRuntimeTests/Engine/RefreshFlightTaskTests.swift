import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Where a refresh flight runs: in the task of the caller that starts it when the store never waits and the
/// transport honours ``TransportCancellationShield`` (an ``InMemorySessionStore`` and ``URLSessionHTTPTransport``),
/// in a task of its own otherwise. Either way, cancelling that caller reaches nothing the flight does: the
/// request is answered, the rotated token stored, and every caller gets the one refresh's result.
@Suite("Engine: the refresh flight's task", timeLimit(minutes: 1))
struct RefreshFlightTaskTests {
    enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
        /// Never waits: the flight runs in the first caller's task.
        case inMemory
        /// An `async` store: the flight runs in a task of its own.
        case suspending
        var testDescription: String { rawValue }

        func make() -> any SessionStore { self == .inMemory ? InMemorySessionStore() : SlowStore() }
    }

    @Test(
        "the caller that started a refresh is cancelled while the request is on the wire", arguments: StoreKind.allCases
    )
    func callerCancelledDuringRequest(_ kind: StoreKind) async throws {
        let harness = try AcmeHarness(store: kind.make())
        defer { harness.server.stop() }
        #expect(harness.client.refreshRunsInCallerTask == (kind == .inMemory))
        try await harness.signIn()
        harness.clock.advance(3600 + 1)
        harness.backend.holdRefreshes()
        let client = harness.client
        let first = Task { try await client.validAccessToken() }
        await harness.refreshRequestArrived()
        first.cancel()
        harness.backend.releaseRefreshes()
        #expect(try await first.value == "at-2")
        // Stored and current: the next caller gets it without a request.
        #expect(try await client.validAccessToken() == "at-2")
        #expect(harness.refreshRequests.count == 1)
        #expect(try await harness.storedSession()?["refreshToken"] as? String == "rt-2")
    }

    @Test("a caller already cancelled when it asks still gets the refreshed session", arguments: StoreKind.allCases)
    func callerCancelledBeforeAsking(_ kind: StoreKind) async throws {
        let harness = try AcmeHarness(store: kind.make())
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.clock.advance(3600 + 1)
        let client = harness.client
        let token = try await Task { () async throws -> String in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.validAccessToken()
        }.value
        #expect(token == "at-2")
        #expect(harness.refreshRequests.count == 1)
        #expect(try await harness.storedSession()?["refreshToken"] as? String == "rt-2")
    }

    @Test("a transport that does not honour the shield: the flight runs in a task of its own")
    func otherTransport() async throws {
        let options = AuthClientOptions(transport: PlainTransport(), store: InMemorySessionStore())
        let client = try AuthClient(
            provider: AcmeSpec.make(),
            configuration: ProviderConfiguration(
                values: ["baseURL": "https://acme.example/", "clientID": "acme-app", "apiKey": "pk_live_123"]),
            options: options)
        #expect(client.refreshRunsInCallerTask == false)
    }

    /// A transport that knows nothing of ``TransportCancellationShield``.
    private struct PlainTransport: HTTPTransport {
        func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
            throw AuthError(.networkError, "not used")
        }
    }
}
