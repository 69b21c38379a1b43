import Foundation
import LatchkeyPlatform

/// The open connections of a local server and the threads that serve them, so that it can shut them all down
/// when it stops.
package final class ConnectionRegistry: Sendable {
    private struct State {
        var nextID = 0
        var descriptors: [Int: Int32] = [:]
        /// Connections that have not sent a whole request yet (the ones eviction may pick).
        var awaitingRequest: Set<Int> = []
        /// Connections shut down to make room; their threads are ending and they no longer count.
        var evicted: Set<Int> = []
        var closed = false
    }

    private let state = Locked(State())

    package init() {}

    /// Whether ``close()`` has been called.
    package var isClosed: Bool { state.withLock { $0.closed } }

    /// The number of open connections.
    package var count: Int { state.withLock { $0.descriptors.count } }

    /// Adopts a connection; returns its id, or `nil` (having closed it) when the registry is closed or
    /// already holds `limit` connections.
    ///
    /// With `evictingIdle`, a full registry makes room instead: it shuts down its oldest connection that has
    /// not sent a whole request yet (see ``requestArrived(_:)``), so connections held open and silent by
    /// another program can never lock out a real request. A new connection is refused only when every
    /// connection is busy with a request.
    /// - Parameters:
    ///   - descriptor: The accepted connection.
    ///   - limit: The most connections served at once.
    ///   - evictingIdle: Whether to evict the oldest connection still waiting for its request when full.
    package func adopt(_ descriptor: Int32, limit: Int = .max, evictingIdle: Bool = false) -> Int? {
        let id = state.withLock { state -> Int? in
            guard !state.closed else { return nil }
            if state.descriptors.count - state.evicted.count >= limit {
                let candidates = state.awaitingRequest.subtracting(state.evicted)
                guard evictingIdle, let oldest = candidates.min(), let victim = state.descriptors[oldest] else {
                    return nil
                }
                state.evicted.insert(oldest)
                SocketIO.shutdownBoth(victim)
            }
            state.nextID += 1
            state.descriptors[state.nextID] = descriptor
            state.awaitingRequest.insert(state.nextID)
            return state.nextID
        }
        if id == nil { SocketIO.closeDescriptor(descriptor) }
        return id
    }

    /// Marks a connection as having sent a whole request head: it is busy, not idle, and is no longer evicted
    /// to make room.
    /// - Parameter id: The connection's id.
    /// - Returns: `false` when the connection was evicted (or released) already; drop its request.
    @discardableResult
    package func requestArrived(_ id: Int) -> Bool {
        state.withLock { state in
            guard state.descriptors[id] != nil, !state.evicted.contains(id) else { return false }
            state.awaitingRequest.remove(id)
            return true
        }
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
            state.awaitingRequest.remove(id)
            state.evicted.remove(id)
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

    /// Runs `body` on a new thread.
    package func spawn(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { body() }
        thread.name = name
        thread.start()
    }
}
