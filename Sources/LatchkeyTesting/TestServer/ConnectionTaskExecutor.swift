import Dispatch
import LatchkeyPlatform

/// Runs a request handler's jobs on the connection's own thread, so that ``TestHTTPServer`` answers without
/// waiting for Swift's cooperative pool.
///
/// The pool has one thread per core. When a test run keeps it busy (hundreds of tests started at once on two
/// cores, key generation, large parsing tests), a handler queued behind that work answers seconds late, and the
/// client's request, whose timer runs in real time, times out. With this executor as the handler task's
/// preference, its jobs, and those of the default actors it calls, run on the connection thread, which waits
/// for the response anyway.
///
/// When the thread stops serving (the handler finished, or the server stopped while the handler was
/// suspended), jobs that still arrive go to the global concurrent executor, so an abandoned handler, or an
/// actor it was running, never waits on a thread that is gone.
///
/// Task executors need iOS 18 / macOS 15; before, handlers run on the cooperative pool (see
/// `TestServerConnection.runHandler(_:)`).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class ConnectionTaskExecutor: TaskExecutor, Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var serving = true
    }

    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)

    /// Queues a job for the connection thread, or hands it to the global executor once the thread is done.
    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let queued = state.withLock { state -> Bool in
            guard state.serving else { return false }
            state.jobs.append(unowned)
            return true
        }
        if queued {
            wake.signal()
        } else {
            globalConcurrentExecutor.enqueue(ExecutorJob(unowned))
        }
    }

    /// Runs queued jobs on the calling thread until `isDone` says so; checks it at least every 50 ms.
    /// Afterwards, every queued and future job goes to the global executor.
    /// - Parameter isDone: Whether to stop serving (the handler has answered, or the server stopped).
    func serve(until isDone: () -> Bool) {
        while !isDone() {
            _ = wake.wait(timeout: .now() + .milliseconds(50))
            while let job = next() {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        let leftovers = state.withLock { state -> [UnownedJob] in
            state.serving = false
            defer { state.jobs = [] }
            return state.jobs
        }
        for job in leftovers { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    private func next() -> UnownedJob? {
        state.withLock { state in state.jobs.isEmpty ? nil : state.jobs.removeFirst() }
    }
}
