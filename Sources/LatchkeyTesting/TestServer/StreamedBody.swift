import Foundation
import LatchkeyPlatform
import LatchkeyRuntime

/// A body ``TestHTTPServer`` writes piece by piece after the head, for hostile-response tests: the same
/// chunk again and again until a byte budget is spent or the client closes, then (optionally) a stall.
///
/// ``bytesWritten`` says how much of it the client took before it hung up: a client that stops reading at
/// its cap leaves it far below the budget.
public final class StreamedBody: Sendable {
    /// The bytes written each time.
    public let chunk: Data
    /// How many body bytes to write at most.
    public let budget: Int
    /// Whether to keep the connection open, sending nothing more, once the budget is spent (until the
    /// client closes it or the server stops).
    public let stallsAfterwards: Bool
    /// The pause after each chunk: a pace like a real link's instead of the loopback's line rate.
    public let pause: LatchkeyDuration
    private let written = Locked(0)
    private let finished = Locked(false)

    /// Creates a body.
    /// - Parameters:
    ///   - chunk: The bytes written each time (must not be empty).
    ///   - budget: How many body bytes to write at most (whole chunks; 0 writes none).
    ///   - pause: The pause after each chunk (default none).
    ///   - stallsAfterwards: Whether to hold the connection open afterwards (default `false`: close it).
    public init(chunk: Data, budget: Int, pause: LatchkeyDuration = .zero, stallsAfterwards: Bool = false) {
        precondition(!chunk.isEmpty, "a streamed body needs a non-empty chunk")
        self.chunk = chunk
        self.budget = budget
        self.stallsAfterwards = stallsAfterwards
        self.pause = pause
    }

    /// The body bytes the socket accepted so far.
    public var bytesWritten: Int { written.withLock { $0 } }

    /// Whether the server has stopped writing (budget spent or the client gone).
    public var isFinished: Bool { finished.withLock { $0 } }

    /// Writes the body to a connected socket after its head.
    /// - Returns: Whether the whole budget was written (the client did not hang up first).
    func write(to descriptor: Int32) -> Bool {
        defer { finished.withLock { $0 = true } }
        let bytes = Array(chunk)
        while bytesWritten + bytes.count <= budget {
            guard SocketIO.writeAll(descriptor, bytes) else { return false }
            written.withLock { $0 += bytes.count }
            if pause > .zero, !SocketIO.wait(descriptor, until: .now + pause) { return false }
        }
        if stallsAfterwards { _ = SocketIO.wait(descriptor, until: .now + .seconds(3600)) }
        return true
    }
}
