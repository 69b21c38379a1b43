import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The transport's deadlines share one timer, armed for the earliest (see `TransportTaskRegistry`), and
/// ``TransportCancellationShield`` keeps a caller's cancellation from ending a request. Each test would hang
/// (and fail on the suite's time limit) if a deadline were lost.
@Suite("HTTP transports: deadlines and the cancellation shield", timeLimit(minutes: 2))
struct TransportDeadlineTests {
    @Test(
        "a shorter deadline set after a longer one ends its own request, and only that one",
        arguments: TransportKind.allCases)
    func shorterDeadlineAfterLongerOne(kind: TransportKind) async throws {
        let server = try TestHTTPServer { _ in .delay(3600, then: .text("late")) }
        defer { server.stop() }
        let transport = kind.make()
        let long = Task { () throws(AuthError) -> TransportResponse in
            try await transport.send(TransportRequest(method: "GET", url: server.url("/long"), timeout: 3600))
        }
        await server.requests(atLeast: 1)
        let error = await #expect(throws: AuthError.self) {
            try await transport.send(TransportRequest(method: "GET", url: server.url("/short"), timeout: 0.4))
        }
        #expect(error?.code == .timeout)
        // The long request is still in flight: only cancelling it ends it, and it ends as cancelled.
        long.cancel()
        guard case .failure(let longError) = await long.result else {
            Issue.record("expected the long request to fail once cancelled")
            return
        }
        #expect((longError as? AuthError)?.code == .networkError)
    }

    @Test(
        "a deadline set while the timer is armed for an earlier, finished request still ends its request",
        arguments: TransportKind.allCases)
    func deadlineAfterTimerFiredForNothing(kind: TransportKind) async throws {
        let server = try TestHTTPServer { request in
            request.path == "/fast" ? .text("fast") : .delay(3600, then: .text("late"))
        }
        defer { server.stop() }
        let transport = kind.make()
        // Arms the timer for its own deadline and completes before it (5 s: room for a loaded machine).
        let fast = try await transport.send(TransportRequest(method: "GET", url: server.url("/fast"), timeout: 5))
        #expect(fast.status == 200)
        // A later deadline: the timer fires first for the finished request, then must re-arm for this one.
        let error = await #expect(throws: AuthError.self) {
            try await transport.send(TransportRequest(method: "GET", url: server.url("/slow"), timeout: 6))
        }
        #expect(error?.code == .timeout)
        #expect(await server.allConnectionsClosed())
    }

    @Test(
        "under the cancellation shield, cancelling the calling task leaves the request to its answer",
        arguments: TransportKind.allCases)
    func shieldKeepsRequest(kind: TransportKind) async throws {
        let release = Gate()
        let server = try TestHTTPServer { _ in
            await release.wait()
            return .text("answered")
        }
        defer { server.stop() }
        let transport = kind.make()
        let shielded = Task { () async throws -> TransportResponse in
            try await TransportCancellationShield.$isActive.withValue(true) {
                try await transport.send(TransportRequest(method: "GET", url: server.url("/shared"), timeout: 3600))
            }
        }
        await server.requests(atLeast: 1)
        shielded.cancel()
        release.raise()
        let response = try await shielded.value
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "answered")
        #expect(server.requests.map(\.path) == ["/shared"])
    }

    @Test(
        "under the cancellation shield, a task cancelled before it sends still sends, and the deadline applies",
        arguments: TransportKind.allCases)
    func shieldStillHasDeadline(kind: TransportKind) async throws {
        let server = try TestHTTPServer { _ in .delay(3600, then: .text("late")) }
        defer { server.stop() }
        let transport = kind.make()
        let error = await Task { () async -> AuthError? in
            withUnsafeCurrentTask { $0?.cancel() }
            return await TransportCancellationShield.$isActive.withValue(true) { () async -> AuthError? in
                do throws(AuthError) {
                    _ = try await transport.send(
                        TransportRequest(method: "GET", url: server.url("/slow"), timeout: 0.4))
                    return nil
                } catch {
                    return error
                }
            }
        }.value
        // Unshielded, the cancelled task's request would end at once as cancelled (`network_error`).
        #expect(error?.code == .timeout)
        #expect(server.requests.count <= 1)  // a loaded machine may time out before the server read it
    }

    @Test(
        "a timeout of infinity, NaN or more than a year is taken as a year: the request is answered",
        arguments: TransportKind.allCases, [Double.infinity, .nan, 1e12])
    func unrepresentableTimeout(kind: TransportKind, _ timeout: Double) async throws {
        let server = try TestHTTPServer { _ in .text("answered") }
        defer { server.stop() }
        let response = try await kind.make().send(
            TransportRequest(method: "GET", url: server.url("/any"), timeout: timeout))
        #expect(response.status == 200)
    }

    @Test("a negative timeout ends the request at once, as timed out", arguments: TransportKind.allCases)
    func negativeTimeout(kind: TransportKind) async throws {
        let server = try TestHTTPServer { _ in .delay(3600, then: .text("late")) }
        defer { server.stop() }
        let error = await #expect(throws: AuthError.self) {
            try await kind.make().send(
                TransportRequest(method: "GET", url: server.url("/any"), timeout: -5))
        }
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("within 0 s") == true)
    }
}
