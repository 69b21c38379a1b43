// posix_spawn: only where ChildSpawn exists (not iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
    import Foundation
    @_spi(Generated) import LatchkeyTesting

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A failure of the child-process plumbing.
    struct ChildProcessError: Error, CustomStringConvertible {
        let description: String
    }

    /// A child process with pipes on its stdin and on its stdout and stderr, driven from one dedicated thread:
    /// every method blocks. The crasher exits when its stdin closes, so children end with the test process.
    ///
    /// The test process runs hundreds of tests at once, with thousands of sockets and pipes open, so the plumbing
    /// is careful with descriptors:
    /// - The child gets its three standard descriptors and nothing else: every other descriptor of the test
    ///   process (the test servers' sockets and wake pipes are not close-on-exec) is closed in the child, so a
    ///   long-lived child never holds another test's connection open.
    /// - Each of the parent's two ends is closed exactly once (a second `close` of a number another thread has
    ///   reused would close that thread's file instead).
    /// - It does not use Foundation's `Process`: on Linux, the toolchain's `Process.run()` over-reads the
    ///   directory buffer of `/proc/self/fd` (swift-corelibs-foundation#5472), which crashes a process with
    ///   more than about 1,300 open descriptors.
    final class ChildProcess {
        let pid: pid_t
        private var input: Int32
        private var output: Int32
        private var buffer: [UInt8] = []
        private var reaped = false

        /// Writing to the stdin of a child that already exited must fail with `EPIPE`, not kill the test process.
        private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

        /// Starts `executable` with `arguments`.
        init(_ executable: URL, _ arguments: [String]) throws {
            Self.ignoreBrokenPipes
            let stdinPipe = try Self.makePipe()
            let stdoutPipe: (read: Int32, write: Int32)
            do {
                stdoutPipe = try Self.makePipe()
            } catch {
                _ = close(stdinPipe.read)
                _ = close(stdinPipe.write)
                throw error
            }
            // stderr goes with stdout: a child must hold no descriptor of the test process (swift test waits for its
            // stdio to close), and its diagnostics then show up in what the test reads.
            let started = Result { () throws(ChildSpawn.Failure) -> pid_t in
                try ChildSpawn.start(
                    executable.path, arguments, stdin: .descriptor(stdinPipe.read),
                    stdout: .descriptor(stdoutPipe.write), stderr: .stdout)
            }
            // The child has its own copies now (or never started): the parent keeps only its two ends.
            _ = close(stdinPipe.read)
            _ = close(stdoutPipe.write)
            let pid: pid_t
            switch started {
            case .success(let spawned): pid = spawned
            case .failure(let failure):
                _ = close(stdinPipe.write)
                _ = close(stdoutPipe.read)
                throw ChildProcessError(description: failure.description)
            }
            self.pid = pid
            self.input = stdinPipe.write
            self.output = stdoutPipe.read
        }

        deinit {
            if !reaped {
                _ = kill(pid, SIGKILL)
                _ = try? waitForExit()
            }
            closeInput()
            if output >= 0 { _ = close(output) }
        }

        /// A pipe whose ends are close-on-exec (the child gets its own copies through `dup2`).
        private static func makePipe() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard ends.withUnsafeMutableBufferPointer({ pipe($0.baseAddress!) }) == 0 else {
                throw ChildProcessError(description: "pipe failed: errno \(errno)")
            }
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            return (ends[0], ends[1])
        }

        /// The next line the child writes, or `nil` at end of file or after `timeout` seconds.
        func readLine(timeout: Double) -> String? {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    return line
                }
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0, output >= 0 else { return nil }
                var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, Int32(min(remaining * 1000, 1000).rounded(.up)))
                if ready < 0, errno != EINTR { return nil }
                guard ready > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return nil }
                buffer += chunk[..<count]
            }
        }

        /// Writes a line to the child's stdin.
        func writeLine(_ line: String) {
            guard input >= 0 else { return }
            let bytes = Array((line + "\n").utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }

        /// Closes the child's stdin (the crasher then exits). Idempotent.
        func closeInput() {
            guard input >= 0 else { return }
            _ = close(input)
            input = -1
        }

        /// Sends a signal.
        func deliver(_ number: Int32) {
            _ = kill(pid, number)
        }

        /// Waits for the child to end; returns the raw `waitpid` status.
        @discardableResult
        func waitForExit() throws -> Int32 {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                guard errno == EINTR else { throw ChildProcessError(description: "waitpid failed: errno \(errno)") }
            }
            reaped = true
            return status
        }

        /// Whether a `waitpid` status means "killed by `signal`".
        static func wasKilled(_ status: Int32, by signal: Int32) -> Bool {
            (status & 0x7f) == signal
        }
    }
#endif
