#if os(Linux)
    import CLatchkeyCurl
    import Dispatch
    import Foundation
    import Glibc
    import LatchkeyPlatform

    /// The threads that run ``CurlHTTPTransport``'s blocking `curl_easy_perform` calls, each with its own easy
    /// handle, kept between requests so that the handle's connections (and TLS sessions) are reused.
    ///
    /// A request takes an idle worker or starts a new one; afterwards the worker waits for the next request,
    /// unless ``maximumIdle`` wait already (then it ends). An idle worker ends after ``idleLifetimeSeconds``, and every
    /// idle worker ends when the pool is closed (its transport deinitialised). No transfer ever runs on Swift's
    /// cooperative pool.
    final class CurlWorkerPool: Sendable {
        /// The workers kept waiting at most.
        static let maximumIdle = 4
        /// How long an idle worker waits for a request before it ends (its connections with it), in seconds.
        static let idleLifetimeSeconds = 30

        /// Work for a worker: given its easy handle (`nil` when libcurl could not create one).
        typealias Job = @Sendable (UnsafeMutableRawPointer?) -> Void

        let library: CurlLibrary

        private struct State {
            var idle: [CurlWorker] = []
            var closed = false
        }

        private let state = Locked(State())

        init(library: CurlLibrary) {
            self.library = library
        }

        /// Runs `job` on an idle worker, or on a new one.
        func run(_ job: @escaping Job) {
            if let worker = state.withLock({ $0.idle.popLast() }) {
                worker.assign(.run(job))
            } else {
                CurlWorker.start(pool: self, first: job)
            }
        }

        /// A worker finished its job: returns whether it should wait for another.
        func keep(_ worker: CurlWorker) -> Bool {
            state.withLock { state in
                guard !state.closed, state.idle.count < Self.maximumIdle else { return false }
                state.idle.append(worker)
                return true
            }
        }

        /// An idle worker waited ``idleLifetimeSeconds`` for nothing: returns whether it may end (it is still idle, not
        /// just handed a job).
        func retire(_ worker: CurlWorker) -> Bool {
            state.withLock { state in
                guard let index = state.idle.firstIndex(where: { $0 === worker }) else { return false }
                state.idle.remove(at: index)
                return true
            }
        }

        /// Ends every idle worker; busy ones end after their request.
        func close() {
            let idle = state.withLock { state in
                state.closed = true
                defer { state.idle = [] }
                return state.idle
            }
            for worker in idle { worker.assign(.stop) }
        }
    }

    /// One thread and its easy handle (see ``CurlWorkerPool``).
    final class CurlWorker: Sendable {
        enum Command: Sendable {
            case run(CurlWorkerPool.Job)
            case stop
        }

        private let pool: CurlWorkerPool
        private let wake = DispatchSemaphore(value: 0)
        private let next = Locked<Command?>(nil)

        private init(pool: CurlWorkerPool) {
            self.pool = pool
        }

        /// Starts a worker thread that runs `first`, then serves the pool.
        static func start(pool: CurlWorkerPool, first: @escaping CurlWorkerPool.Job) {
            let worker = CurlWorker(pool: pool)
            let thread = Thread { worker.serve(first: first) }
            thread.name = "latchkey.curl"
            thread.start()
        }

        /// Hands the worker its next command (it is idle, waiting for one).
        func assign(_ command: Command) {
            next.withLock { $0 = command }
            wake.signal()
        }

        private func serve(first: @escaping CurlWorkerPool.Job) {
            Self.ignoreBrokenPipes()
            let api = pool.library.api
            // The handle never leaves this thread: created, used and cleaned up here.
            let handle = api.easy_init()
            var job: CurlWorkerPool.Job? = first
            while let current = job {
                current(handle)
                job = nil
                guard handle != nil, pool.keep(self) else { break }
                job = waitForJob()
            }
            if let handle { api.easy_cleanup(handle) }
        }

        /// Waits for the next job; `nil` when the worker should end.
        private func waitForJob() -> CurlWorkerPool.Job? {
            let lifetime = DispatchTimeInterval.seconds(CurlWorkerPool.idleLifetimeSeconds)
            while true {
                if wake.wait(timeout: .now() + lifetime) == .timedOut {
                    if pool.retire(self) { return nil }
                    continue  // taken by a request just now: its command is on the way
                }
                let command = next.withLock { command in
                    defer { command = nil }
                    return command
                }
                guard case .run(let job)? = command else { return nil }
                return job
            }
        }

        /// A TLS write to a connection the peer closed raises SIGPIPE in the writing thread (libcurl installs no
        /// handler with `CURLOPT_NOSIGNAL`): blocked on this thread, it cannot end the process.
        private static func ignoreBrokenPipes() {
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &set, nil)
        }
    }
#endif
