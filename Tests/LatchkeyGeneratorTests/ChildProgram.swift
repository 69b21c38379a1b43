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

    /// Runs a program to completion and captures its stdout and stderr, started with ``ChildSpawn`` (`posix_spawn`)
    /// rather than Foundation's `Process`.
    ///
    /// On Linux, the toolchain's `Process.run()` (swift-corelibs-foundation before the fix of issue #5472) finds
    /// the highest open descriptor by copying each `/proc/self/fd` entry's 256-byte `d_name` out of the directory
    /// buffer, which reads past the end of that buffer once it is full. It is full when the process has more
    /// than about 1,300 descriptors open, which the whole test suite has (its parallel test servers hold 2,000
    /// and more at its start): AddressSanitizer reports a heap-buffer-overflow there, and without it the
    /// over-read crashes the test process with a segmentation fault in `memcpy` whenever the buffer ends at an
    /// unmapped page. This runner never scans `/proc/self/fd`: it asks the C library to close every descriptor
    /// above stderr in the child.
    enum ChildProgram {
        /// A finished run.
        struct Output {
            /// The exit status, or the number of the signal that ended the program.
            var status: Int32
            var stdout: Data
            var stderr: Data
        }

        /// A failure to start the program.
        struct Failure: Error, CustomStringConvertible {
            let description: String
        }

        /// Runs `executable` with `arguments` in `directory` (the current one when `nil`), with stdin from
        /// `/dev/null`, and waits for it to end.
        static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil) throws -> Output {
            let stdoutPipe = try makePipe()
            let stderrPipe: (read: Int32, write: Int32)
            do {
                stderrPipe = try makePipe()
            } catch {
                _ = close(stdoutPipe.read)
                _ = close(stdoutPipe.write)
                throw error
            }
            let spawned = Result { () throws(ChildSpawn.Failure) -> pid_t in
                try ChildSpawn.start(
                    executable.path, arguments, directory: directory?.path, stdout: .descriptor(stdoutPipe.write),
                    stderr: .descriptor(stderrPipe.write))
            }
            _ = close(stdoutPipe.write)
            _ = close(stderrPipe.write)
            defer {
                _ = close(stdoutPipe.read)
                _ = close(stderrPipe.read)
            }
            let pid: pid_t
            switch spawned {
            case .success(let started): pid = started
            case .failure(let failure): throw Failure(description: failure.description)
            }
            let (stdout, stderr) = drain(stdoutPipe.read, stderrPipe.read)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                guard errno == EINTR else { throw Failure(description: "waitpid failed: errno \(errno)") }
            }
            let signal = status & 0x7f
            return Output(status: signal == 0 ? (status >> 8) & 0xff : signal, stdout: stdout, stderr: stderr)
        }

        private static func makePipe() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard ends.withUnsafeMutableBufferPointer({ pipe($0.baseAddress!) }) == 0 else {
                throw Failure(description: "pipe failed: errno \(errno)")
            }
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            return (ends[0], ends[1])
        }

        /// Reads both pipes until both reach end of file (reading one at a time could deadlock on a full pipe).
        private static func drain(_ first: Int32, _ second: Int32) -> (Data, Data) {
            var outputs = [Data(), Data()]
            var open = [true, true]
            let descriptors = [first, second]
            var chunk = [UInt8](repeating: 0, count: 65536)
            while open.contains(true) {
                var fds = descriptors.indices.map {
                    pollfd(fd: open[$0] ? descriptors[$0] : -1, events: Int16(POLLIN), revents: 0)
                }
                let ready = poll(&fds, nfds_t(fds.count), -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    break
                }
                for index in descriptors.indices where open[index] && fds[index].revents != 0 {
                    let count = chunk.withUnsafeMutableBytes { read(descriptors[index], $0.baseAddress, $0.count) }
                    if count > 0 {
                        outputs[index].append(contentsOf: chunk[..<count])
                    } else if count == 0 || errno != EINTR {
                        open[index] = false
                    }
                }
            }
            return (outputs[0], outputs[1])
        }
    }
#endif
