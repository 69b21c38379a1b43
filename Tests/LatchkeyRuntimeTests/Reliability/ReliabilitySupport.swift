import Foundation
import LatchkeyRuntime
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How hard the reliability tests push: meaningful defaults that keep the suite fast, heavier counts with
/// `LATCHKEY_STRESS=1`.
enum Stress {
    static let enabled = ProcessInfo.processInfo.environment["LATCHKEY_STRESS"] == "1"

    /// `normal` by default, `stress` under `LATCHKEY_STRESS=1`.
    static func count(_ normal: Int, stress: Int) -> Int { enabled ? stress : normal }
}

/// Prints a figure for the README's Reliability section, as `[reliability] name: value`.
func reportFigure(_ name: String, _ value: String) {
    print("[reliability] \(name): \(value)")
}

/// Runs blocking work (child processes, `waitpid`, pipe reads, sleeps) on a thread of its own, so that
/// tests never block Swift's cooperative pool, which has one thread per core.
func onDedicatedThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try work()) } catch { continuation.resume(throwing: error) }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// A private scratch directory, removed by ``remove()``.
struct ScratchDirectory {
    let url: URL

    init(_ label: String) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-\(label)-\(UUID().uuidString)")
    }

    /// A subdirectory path (not created).
    func child(_ name: String) -> URL { url.appendingPathComponent(name, isDirectory: true) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The POSIX permission bits of a file.
func permissions(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// A failure of the child-process plumbing.
struct ChildProcessError: Error, CustomStringConvertible {
    let description: String
}

/// `latchkey-store-crasher`, the helper executable the cross-process and crash tests run.
enum StoreCrasher {
    /// The binary: `$LATCHKEY_STORE_CRASHER`, or the one built next to the tests.
    static let url: URL? = {
        if let path = ProcessInfo.processInfo.environment["LATCHKEY_STORE_CRASHER"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var directories: [URL] = []
        let argument = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        directories += [argument, argument.deletingLastPathComponent()]
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return directories.map { $0.appendingPathComponent("latchkey-store-crasher") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// The binary, or `nil` after recording an issue (the test then fails).
    static func require(sourceLocation: SourceLocation = #_sourceLocation) -> URL? {
        if let url { return url }
        let message =
            "latchkey-store-crasher is not built next to the tests: run `swift build --build-tests` (it is the "
            + "`latchkey-store-crasher` executable target), or set LATCHKEY_STORE_CRASHER to its path."
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        return nil
    }
}

/// A child process with pipes on its stdin and on its stdout and stderr, driven from one dedicated thread:
/// every method blocks. The crasher exits when its stdin closes, so children end with the test process.
final class ChildProcess {
    let pid: pid_t
    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []
    private var reaped = false

    /// Writing to the stdin of a child that already exited must fail with `EPIPE`, not kill the test process.
    private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Starts `executable` with `arguments`.
    init(_ executable: URL, _ arguments: [String]) throws {
        Self.ignoreBrokenPipes
        var stdinPipe: [Int32] = [-1, -1]
        var stdoutPipe: [Int32] = [-1, -1]
        guard Self.makePipe(&stdinPipe), Self.makePipe(&stdoutPipe) else {
            throw ChildProcessError(description: "pipe failed: errno \(errno)")
        }
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        // stderr too: a child must hold no descriptor of the test process (swift test waits for its stdio
        // to close), and its diagnostics then show up in what the test reads.
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 2)
        let argv = ([executable.path] + arguments).map { strdup($0) }
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for pointer in argv + environment { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable.path, &actions, nil, argv + [nil], environment + [nil])
        _ = close(stdinPipe[0])
        _ = close(stdoutPipe[1])
        guard status == 0 else {
            _ = close(stdinPipe[1])
            _ = close(stdoutPipe[0])
            throw ChildProcessError(description: "posix_spawn \(executable.path) failed: errno \(status)")
        }
        self.pid = pid
        self.input = stdinPipe[1]
        self.output = stdoutPipe[0]
    }

    deinit {
        if !reaped {
            _ = kill(pid, SIGKILL)
            _ = try? waitForExit()
        }
        _ = close(input)
        _ = close(output)
    }

    /// A pipe whose ends are close-on-exec (the child gets its own copies through `dup2`).
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard ends.withUnsafeMutableBufferPointer({ pipe($0.baseAddress!) }) == 0 else { return false }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        return true
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
            guard remaining > 0 else { return nil }
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
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
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

/// A fixed session of a made-up provider, for store-level tests.
func sampleSession(_ label: String, tokenBytes: Int, issuedAt: Date, expiresAt: Date?) -> Session {
    Session(
        accessToken: "at-\(label)-" + String(repeating: label, count: tokenBytes / max(label.count, 1)),
        refreshToken: "rt-\(label)-" + String(repeating: "r", count: tokenBytes / 4),
        idToken: nil, expiresAt: expiresAt, issuedAt: issuedAt,
        user: User(id: "user-\(label)", email: "\(label)@example.com"), provider: "crasher")
}
