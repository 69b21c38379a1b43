import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Occupies every thread of the cooperative pool with tasks that spin (CPU work, no suspension) until they are
/// released, as a test run does when hundreds of tests start at once on two cores.
private final class PoolOccupation: Sendable {
    private let spinning = Locked(0)
    private let released = Locked(false)
    private let gaveUp = Locked(0)

    /// A safety valve so that a broken server cannot hang the suite; never reached when the server works.
    private static let giveUpAfter: LatchkeyDuration = .seconds(120)

    /// Spins on the calling pool thread until ``release()``.
    func spin() {
        spinning.withLock { $0 += 1 }
        let limit = MonotonicInstant.now + Self.giveUpAfter
        while !released.withLock({ $0 }) {
            if MonotonicInstant.now > limit {
                gaveUp.withLock { $0 += 1 }
                return
            }
        }
    }

    /// Waits (on a dedicated thread, never on the pool) until `count` spinners hold their threads.
    func waitForSpinners(_ count: Int) {
        while spinning.withLock({ $0 }) < count { usleep(1000) }
    }

    func release() { released.withLock { $0 = true } }

    /// How many spinners stopped on their own, without being released.
    var spinnersThatGaveUp: Int { gaveUp.withLock { $0 } }
}

/// A default actor the handler calls, so its jobs must not need the pool either.
private actor RequestCounter {
    private var count = 0

    func next() -> Int {
        count += 1
        return count
    }
}

@Suite("TestHTTPServer without the cooperative pool")
struct TestHTTPServerPoolTests {
    @Test("answers, through an actor, while every thread of the cooperative pool is busy")
    func answersWhileThePoolIsBusy() async throws {
        let counter = RequestCounter()
        let server = try TestHTTPServer { request in
            .text("request \(await counter.next()) to \(request.path)")
        }
        defer { server.stop() }
        let port = server.port
        let width = max(ProcessInfo.processInfo.activeProcessorCount, 1)
        let occupation = PoolOccupation()
        let spinners = (0..<width).map { _ in Task.detached { occupation.spin() } }
        // The request goes out from a dedicated thread once every pool thread spins, and releases the spinners
        // when the answer is in: a handler that needed the pool could only answer after they gave up.
        let response = await DedicatedThread.run { () -> RawHTTPClient.Response? in
            occupation.waitForSpinners(width)
            defer { occupation.release() }
            return RawHTTPClient.exchangeBlocking(
                port: port, Array("GET /busy HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        }
        for spinner in spinners { await spinner.value }
        #expect(response?.status == 200)
        #expect(response?.body == "request 1 to /busy")
        #expect(occupation.spinnersThatGaveUp == 0)
        #expect(server.requests.map(\.path) == ["/busy"])
    }
}
