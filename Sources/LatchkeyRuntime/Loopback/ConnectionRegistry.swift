import Dispatch
import Foundation
import Synchronization

/// The open connections and worker threads of a local server, so that it can shut them all down and
/// wait for its threads when it stops.
package final class ConnectionRegistry: Sendable {
    private struct State {
        var nextID = 0
        var descriptors: [Int: Int32] = [:]
        var closed = false
    }

    private let state = Mutex(State())
    private let threads = DispatchGroup()

    package init() {}

    /// Whether ``close()`` has been called.
    package var isClosed: Bool { state.withLock { $0.closed } }

    /// The number of open connections.
    package var count: Int { state.withLock { $0.descriptors.count } }

    /// Adopts a connection; returns its id, or `nil` (having closed it) when the registry is closed or
    /// already holds `limit` connections.
    package func adopt(_ descriptor: Int32, limit: Int = .max) -> Int? {
        let id = state.withLock { state -> Int? in
            guard !state.closed, state.descriptors.count < limit else { return nil }
            state.nextID += 1
            state.descriptors[state.nextID] = descriptor
            return state.nextID
        }
        if id == nil { SocketIO.closeDescriptor(descriptor) }
        return id
    }

    /// Closes a connection and forgets it (under the lock, so no shutdown can hit a reused number).
    /// - Parameters:
    ///   - id: The connection's id.
    ///   - gracefully: Whether to half-close and drain first, so the peer reads the whole response.
    package func release(_ id: Int, gracefully: Bool = true) {
        let descriptor = state.withLock { $0.descriptors[id] }
        guard let descriptor else { return }
        if gracefully { SocketIO.finishWrites(descriptor) }
        state.withLock { state in
            if state.descriptors.removeValue(forKey: id) != nil { SocketIO.closeDescriptor(descriptor) }
        }
    }

    /// Shuts down every connection except `id`, waking their threads.
    package func shutDownAll(except id: Int? = nil) {
        state.withLock { state in
            for (key, descriptor) in state.descriptors where key != id {
                SocketIO.shutdownBoth(descriptor)
            }
        }
    }

    /// Refuses new connections and shuts down the open ones. Idempotent.
    package func close() {
        state.withLock { $0.closed = true }
        shutDownAll()
    }

    /// Runs `body` on a new thread counted by ``waitForThreads(timeout:)``.
    package func spawn(name: String, _ body: @escaping @Sendable () -> Void) {
        threads.enter()
        let thread = Thread { [threads] in
            body()
            threads.leave()
        }
        thread.name = name
        thread.start()
    }

    /// Waits until every spawned thread has ended.
    /// - Returns: `false` when some are still running after `timeout` seconds.
    @discardableResult
    package func waitForThreads(timeout: Double) -> Bool {
        threads.wait(timeout: .now() + timeout) == .success
    }
}
