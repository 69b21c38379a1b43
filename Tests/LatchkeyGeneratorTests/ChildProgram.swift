import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program to completion and captures its stdout and stderr, with `posix_spawn` rather than
/// Foundation's `Process`.
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
        let spawned = spawn(
            executable.path, [executable.path] + arguments, directory: directory?.path, stdoutPipe.write,
            stderrPipe.write)
        _ = close(stdoutPipe.write)
        _ = close(stderrPipe.write)
        defer {
            _ = close(stdoutPipe.read)
            _ = close(stderrPipe.read)
        }
        guard case .success(let pid) = spawned else {
            if case .failure(let code) = spawned {
                throw Failure(description: "posix_spawn \(executable.path) failed: errno \(code)")
            }
            throw Failure(description: "posix_spawn \(executable.path) failed")
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

    private enum SpawnStatus {
        case success(pid_t)
        case failure(Int32)
    }

    private static func spawn(
        _ path: String, _ arguments: [String], directory: String?, _ stdout: Int32, _ stderr: Int32
    ) -> SpawnStatus {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        #if canImport(Darwin)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
            if let directory { posix_spawn_file_actions_addchdir_np(&actions, directory) }
        #else
            guard GlibcSpawn.closeFrom(&actions, 3) else { return .failure(ENOSYS) }
            if let directory, !GlibcSpawn.changeDirectory(&actions, directory) { return .failure(ENOSYS) }
        #endif
        let argv = arguments.map { strdup($0) }
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv + [nil], envp + [nil])
        return status == 0 ? .success(pid) : .failure(status)
    }
}

#if !canImport(Darwin)
    /// glibc's spawn extensions, which Swift's Glibc module does not import (they need `_GNU_SOURCE`), looked up
    /// by name.
    enum GlibcSpawn {
        private typealias Actions = UnsafeMutablePointer<posix_spawn_file_actions_t>
        private typealias CloseFrom = @convention(c) (Actions, Int32) -> Int32
        private typealias ChangeDirectory = @convention(c) (Actions, UnsafePointer<CChar>) -> Int32

        private static func symbol(_ name: String) -> UnsafeMutableRawPointer? { dlsym(dlopen(nil, RTLD_NOW), name) }

        /// Adds "close every descriptor from `lowest` up"; `false` without glibc 2.34.
        static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) -> Bool {
            guard let function = symbol("posix_spawn_file_actions_addclosefrom_np") else { return false }
            return unsafeBitCast(function, to: CloseFrom.self)(&actions, lowest) == 0
        }

        /// Adds "change to `directory`" (glibc copies the path); `false` without glibc 2.29.
        static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, _ directory: String) -> Bool {
            guard let function = symbol("posix_spawn_file_actions_addchdir_np") else { return false }
            return directory.withCString { unsafeBitCast(function, to: ChangeDirectory.self)(&actions, $0) } == 0
        }
    }
#endif
