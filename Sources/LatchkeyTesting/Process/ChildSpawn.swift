// posix_spawn (and `posix_spawn_file_actions_addchdir_np`) do not exist for iOS, tvOS, watchOS and visionOS apps:
// the spawner is there only where a test can start a child program, so the product builds for every platform.
// The tests that start programs are compiled under the same condition.
#if os(macOS) || os(Linux)
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Starts a child program with `posix_spawn`, for tests that run tools (`latchkey-gen`, `latchkey-demo`, a
    /// crash helper) beside many open sockets.
    ///
    /// Not Foundation's `Process`: on Linux, the toolchain's `Process.run()` (swift-corelibs-foundation before the
    /// fix of issue #5472) finds the highest open descriptor by copying each `/proc/self/fd` entry's 256-byte
    /// `d_name` out of the directory buffer, which reads past the end of that buffer once more than about 1,300
    /// descriptors are open, as in a parallel test run: AddressSanitizer reports a heap-buffer-overflow there,
    /// and without it the test process sometimes crashes in `memcpy`. This spawner never scans `/proc/self/fd`:
    /// the C library closes every descriptor above stderr in the child.
    public enum ChildSpawn {
        /// Where one of the child's standard descriptors (0, 1, 2) comes from.
        public enum Source: Sendable, Equatable {
            /// `/dev/null`.
            case null
            /// A copy of this process's descriptor (a pipe end, typically).
            case descriptor(Int32)
            /// A file, opened for appending (created with mode 0644); for stdin, opened for reading.
            case file(String)
            /// The same as the child's stdout (for stderr only).
            case stdout
        }

        /// A child that could not be started.
        public struct Failure: Error, CustomStringConvertible {
            /// What failed.
            public let description: String
        }

        /// Starts `path` (argv[0]) with `arguments` after it.
        /// - Parameters:
        ///   - path: The executable's absolute path.
        ///   - arguments: The arguments after argv[0].
        ///   - environment: The child's environment (default: this process's).
        ///   - directory: The working directory (default: this process's).
        ///   - stdin: Where stdin comes from (default `/dev/null`).
        ///   - stdout: Where stdout goes.
        ///   - stderr: Where stderr goes.
        /// - Returns: The child's process id; reap it with `waitpid`.
        /// - Throws: ``Failure`` when the spawn failed (nothing was started).
        public static func start(
            _ path: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
            stdin: Source = .null, stdout: Source, stderr: Source
        ) throws(Failure) -> pid_t {
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
            for (target, source) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
                switch source {
                case .null:
                    posix_spawn_file_actions_addopen(
                        &actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
                case .descriptor(let descriptor):
                    posix_spawn_file_actions_adddup2(&actions, descriptor, target)
                case .file(let file):
                    let flags = target == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_APPEND
                    posix_spawn_file_actions_addopen(&actions, target, file, flags, 0o644)
                case .stdout:
                    posix_spawn_file_actions_adddup2(&actions, 1, target)
                }
            }
            #if canImport(Darwin)
                posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
                if let directory { posix_spawn_file_actions_addchdir_np(&actions, directory) }
            #else
                guard GlibcSpawn.closeFrom(&actions, 3) else {
                    throw Failure(description: "posix_spawn_file_actions_addclosefrom_np needs glibc 2.34")
                }
                if let directory, !GlibcSpawn.changeDirectory(&actions, directory) {
                    throw Failure(description: "posix_spawn_file_actions_addchdir_np needs glibc 2.29")
                }
            #endif
            let variables = environment ?? ProcessInfo.processInfo.environment
            let argv = ([path] + arguments).map { strdup($0) }
            let envp = variables.map { strdup("\($0.key)=\($0.value)") }
            defer {
                for pointer in argv + envp { free(pointer) }
            }
            var pid: pid_t = 0
            let status = posix_spawn(&pid, path, &actions, &attributes, argv + [nil], envp + [nil])
            guard status == 0 else { throw Failure(description: "posix_spawn \(path) failed: errno \(status)") }
            return pid
        }
    }

    #if !canImport(Darwin)
        /// glibc's spawn extensions, which Swift's Glibc module does not import (they need `_GNU_SOURCE`), looked up
        /// by name.
        enum GlibcSpawn {
            private typealias Actions = UnsafeMutablePointer<posix_spawn_file_actions_t>
            private typealias CloseFrom = @convention(c) (Actions, Int32) -> Int32
            private typealias ChangeDirectory = @convention(c) (Actions, UnsafePointer<CChar>) -> Int32

            private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
                dlsym(dlopen(nil, RTLD_NOW), name)
            }

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
#endif
