import Foundation

/// Holds a route's answer until the test lets it go, and tells the test when the request arrived.
final class HeldRoute: Sendable {
    private let arrivedStream: AsyncStream<Void>
    private let arrivedSignal: AsyncStream<Void>.Continuation
    private let releaseStream: AsyncStream<Void>
    private let releaseSignal: AsyncStream<Void>.Continuation

    init() {
        (arrivedStream, arrivedSignal) = AsyncStream<Void>.makeStream()
        (releaseStream, releaseSignal) = AsyncStream<Void>.makeStream()
    }

    /// Called by the route: reports the arrival, then waits for ``release()``.
    func hold() async {
        arrivedSignal.yield()
        for await _ in releaseStream { break }
    }

    /// Waits until the route was entered.
    func arrived() async {
        for await _ in arrivedStream { break }
    }

    /// Lets the held route answer.
    func release() { releaseSignal.yield() }
}
