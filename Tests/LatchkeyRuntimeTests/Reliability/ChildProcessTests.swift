// posix_spawn: only where ChildSpawn exists (not iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
    import Foundation
    @_spi(Generated) import LatchkeyTesting
    import Testing

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The child-process plumbing of the reliability tests: children get their three standard descriptors and
    /// nothing else of the test process, however many it has open.
    @Suite("Reliability: child-process plumbing")
    struct ReliabilityChildProcessTests {
        @Test("a child inherits only stdin, stdout and stderr, even with 1,500 inheritable descriptors open")
        func childInheritsOnlyStandardDescriptors() async throws {
            #if os(Linux)
                let listing = try await DedicatedThread.run { () throws -> [String] in
                    // Descriptors without close-on-exec, like the test servers' sockets and wake pipes; past 1,300
                    // open descriptors, Foundation's Process.run() over-reads /proc/self/fd (see ChildProcess).
                    var held: [Int32] = []
                    defer { for descriptor in held { _ = close(descriptor) } }
                    for _ in 0..<1500 {
                        let descriptor = open("/dev/null", O_RDONLY)
                        guard descriptor >= 0 else { break }
                        held.append(descriptor)
                    }
                    guard held.count == 1500 else {
                        throw ChildProcessError(description: "open failed: errno \(errno)")
                    }
                    let child = try ChildProcess(URL(fileURLWithPath: "/bin/ls"), ["/proc/self/fd"])
                    var lines: [String] = []
                    while let line = child.readLine(timeout: 30) { lines.append(line) }
                    try child.waitForExit()
                    return lines
                }
                // ls lists its own descriptors: the three standard ones and the directory it is reading.
                #expect(Set(listing) == ["0", "1", "2", "3"], "the child's descriptors: \(listing)")
            #endif
        }

        @Test("closing the child's stdin ends the crasher; the parent's ends are closed once, by their owner")
        func closingInputEndsTheCrasher() async throws {
            guard let crasher = StoreCrasher.require() else { return }
            let scratch = ScratchDirectory("child")
            defer { scratch.remove() }
            let status = try await DedicatedThread.run { () throws -> Int32 in
                let child = try ChildProcess(crasher, ["hold-lock", scratch.url.path, "acme"])
                guard child.readLine(timeout: 30) == "locked" else {
                    throw ChildProcessError(description: "the holder did not take the lock")
                }
                child.closeInput()
                child.closeInput()
                return try child.waitForExit()
            }
            // The crasher's watchdog exits with status 0 when its stdin reaches end of file.
            #expect(status == 0)
        }
    }
#endif
