import Foundation
import LatchkeyPlatform
import LatchkeyTokens

/// The life of one loopback sign-in: waiting, then claimed by the first decisive request (the listener
/// closes at once), then finished (waiters resumed). Timeouts and cancellation finish it directly.
///
/// Without an expected `state` nothing in a request proves that the provider sent it, so no request may
/// end the wait: each callback is then only a candidate (``offer(_:)``), handed to the next
/// ``wait()``, and the listener stays open until the sign-in accepts one (``finish(_:)`` from
/// ``LoopbackRedirectServer/cancel()``) or the timeout.
final class LoopbackCallbackState: Sendable {
    /// The most candidates kept for the sign-in to try; more are answered 503.
    static let maximumCandidates = 16

    private enum Phase {
        case waiting
        case claimed(Result<URL, AuthError>)
        case finished(Result<URL, AuthError>)
    }

    private struct State {
        var phase = Phase.waiting
        var waiters: [CheckedContinuation<Result<URL, AuthError>, Never>] = []
        var timer: Task<Void, Never>?
        var candidates: [URL] = []
    }

    private let state = Locked(State())
    private let listener: ListeningSocket
    private let connections: ConnectionRegistry

    init(listener: ListeningSocket, connections: ConnectionRegistry) {
        self.listener = listener
        self.connections = connections
    }

    /// Starts the overall timeout.
    func startTimer(_ timeout: LatchkeyDuration, message: String) {
        let timer = Task { [weak self] in
            try? await LatchkeyDuration.sleep(timeout)
            guard !Task.isCancelled else { return }
            self?.finish(.failure(AuthError(.timeout, message)))
        }
        let keep = state.withLock { state -> Bool in
            guard case .waiting = state.phase else { return false }
            state.timer = timer
            return true
        }
        if !keep { timer.cancel() }
    }

    /// Claims the flow for a decisive request, closing the listener and every other connection.
    /// - Returns: `false` when the flow already ended (another request won, or it timed out).
    func claim(_ result: Result<URL, AuthError>, connection: Int) -> Bool {
        let claimed = state.withLock { state -> Bool in
            guard case .waiting = state.phase else { return false }
            state.phase = .claimed(result)
            state.timer?.cancel()
            state.timer = nil
            return true
        }
        if claimed {
            listener.close()
            connections.shutDownAll(except: connection)
        }
        return claimed
    }

    /// Hands a candidate callback to the next ``wait()`` without ending the wait for others.
    /// - Returns: `false` when the flow already ended or too many candidates wait.
    func offer(_ url: URL) -> Bool {
        let (accepted, waiters) = state.withLock {
            state -> (Bool, [CheckedContinuation<Result<URL, AuthError>, Never>]) in
            guard case .waiting = state.phase else { return (false, []) }
            if let first = state.waiters.first {
                state.waiters.removeFirst()
                return (true, [first])
            }
            guard state.candidates.count < Self.maximumCandidates else { return (false, []) }
            state.candidates.append(url)
            return (true, [])
        }
        for waiter in waiters { waiter.resume(returning: .success(url)) }
        return accepted
    }

    /// Finishes a claimed flow (after the browser got its page), resuming the waiters.
    func publish() {
        let (waiters, result) = state.withLock {
            state -> ([CheckedContinuation<Result<URL, AuthError>, Never>], Result<URL, AuthError>?) in
            guard case .claimed(let result) = state.phase else { return ([], nil) }
            state.phase = .finished(result)
            defer { state.waiters = [] }
            return (state.waiters, result)
        }
        if let result { for waiter in waiters { waiter.resume(returning: result) } }
    }

    /// Ends the flow from outside (timeout, cancellation) unless a callback already claimed it.
    func finish(_ result: Result<URL, AuthError>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Result<URL, AuthError>, Never>]? in
            guard case .waiting = state.phase else { return nil }
            state.phase = .finished(result)
            state.timer?.cancel()
            state.timer = nil
            state.candidates = []
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return }
        listener.close()
        connections.close()
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// Waits for the outcome.
    func wait() async -> Result<URL, AuthError> {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Result<URL, AuthError>? in
                if case .finished(let result) = state.phase { return result }
                if case .waiting = state.phase, !state.candidates.isEmpty {
                    return .success(state.candidates.removeFirst())
                }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }
}
