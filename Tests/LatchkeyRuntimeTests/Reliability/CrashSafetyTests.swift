// posix_spawn: only where ChildSpawn exists (not iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
    import Foundation
    @_spi(Generated) import LatchkeyTesting
    import LatchkeyPlatform
    import Testing

    @_spi(Generated) @testable import LatchkeyRuntime

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Issue 8, part 4: a process killed with SIGKILL at random moments while it writes the file store leaves
    /// either the old session or the new one, never a corrupt or missing record.
    @Suite("Reliability: crash safety of the file store")
    struct ReliabilityCrashSafetyTests {
        struct Outcome: Sendable {
            var kills = 0
            /// Kills that left the writer's temporary file behind: they landed between `mkstemp` and `rename`.
            var midWrite = 0
            /// The most temporary files seen after one kill: the next writer removes those a kill left behind,
            /// so there is never more than the last kill's one.
            var mostTemporaries = 0
            var recordA = 0
            var recordB = 0
            var corrupt: [String] = []
            var missing = 0
            var notKilled = 0

            mutating func merge(_ other: Outcome) {
                kills += other.kills
                midWrite += other.midWrite
                mostTemporaries = max(mostTemporaries, other.mostTemporaries)
                recordA += other.recordA
                recordB += other.recordB
                corrupt += other.corrupt
                missing += other.missing
                notKilled += other.notKilled
            }
        }

        /// Two sessions of different sizes (about 96 KiB and 48 KiB on disk), so a torn write cannot pass for either.
        /// The identity of the relaunched client (the `crasher` provider, no inputs) the records are bound to.
        static let identity = ProviderIdentity(
            provider: ProviderSpec(name: "crasher", displayName: "Crasher"), inputs: [:])

        static let sessionA = sampleSession(
            "A", tokenBytes: 64 * 1024, issuedAt: Date(timeIntervalSince1970: 1_800_000_000),
            expiresAt: Date(timeIntervalSince1970: 1_800_003_600))
        static let sessionB = sampleSession(
            "B", tokenBytes: 32 * 1024, issuedAt: Date(timeIntervalSince1970: 1_800_000_100),
            expiresAt: Date(timeIntervalSince1970: 1_800_003_700))

        /// Spawns the writer `kills` times, killing it at a random moment of its write loop, and checks the record
        /// after each kill: the raw bytes, the decoded session, and what a relaunched client restores.
        private func run(kills: Int, workers: Int, unsafe: Bool) async throws -> Outcome {
            guard let crasher = StoreCrasher.require() else { return Outcome() }
            let scratch = ScratchDirectory("crash")
            defer { scratch.remove() }
            let recordA = try StoredRecords.encode(Self.sessionA, identity: Self.identity)
            let recordB = try StoredRecords.encode(Self.sessionB, identity: Self.identity)
            try FileManager.default.createDirectory(at: scratch.url, withIntermediateDirectories: true)
            let fileA = scratch.url.appendingPathComponent("record-a")
            let fileB = scratch.url.appendingPathComponent("record-b")
            try recordA.write(to: fileA)
            try recordB.write(to: fileB)
            let perWorker = (kills + workers - 1) / workers
            return try await withThrowingTaskGroup(of: Outcome.self) { group in
                for worker in 0..<workers {
                    let count = min(perWorker, kills - worker * perWorker)
                    guard count > 0 else { continue }
                    let directory = scratch.child("store-\(worker)")
                    group.addTask {
                        try await killLoop(
                            crasher, directory: directory, files: (fileA, fileB), records: (recordA, recordB),
                            count: count,
                            unsafe: unsafe)
                    }
                }
                var total = Outcome()
                for try await outcome in group { total.merge(outcome) }
                return total
            }
        }

        private func killLoop(
            _ crasher: URL, directory: URL, files: (URL, URL), records: (Data, Data), count: Int, unsafe: Bool
        ) async throws -> Outcome {
            let store = FileSessionStore(directory: directory)
            var outcome = Outcome()
            for _ in 0..<count {
                let (status, leftovers) = try await DedicatedThread.run {
                    () throws -> (Int32, Int) in
                    var arguments = ["write-loop", directory.path, "acme", files.0.path, files.1.path]
                    if unsafe { arguments.append("--unsafe-in-place") }
                    let child = try ChildProcess(crasher, arguments)
                    guard let ready = child.readLine(timeout: 30), ready.hasPrefix("ready ") else {
                        child.deliver(SIGKILL)
                        try child.waitForExit()
                        throw ChildProcessError(description: "the writer did not start")
                    }
                    // Kill somewhere in the next two to three writes.
                    let perWrite = max(Int(ready.dropFirst(6)) ?? 1000, 20)
                    usleep(UInt32.random(in: 0...UInt32(min(perWrite * 5 / 2, 200_000))))
                    child.deliver(SIGKILL)
                    let status = try child.waitForExit()
                    // A temporary file left behind means the kill landed mid-write. It stays: the next writer
                    // must remove it (each writer's first save ran before it printed `ready`).
                    return (status, Self.temporaryFiles(in: directory))
                }
                outcome.kills += 1
                if !ChildProcess.wasKilled(status, by: SIGKILL) { outcome.notKilled += 1 }
                if leftovers > 0 { outcome.midWrite += 1 }
                outcome.mostTemporaries = max(outcome.mostTemporaries, leftovers)
                guard let data = try await store.load(key: "acme") else {
                    outcome.missing += 1
                    continue
                }
                let relaunched = try AuthClient(
                    provider: ProviderSpec(name: "crasher", displayName: "Crasher"),
                    configuration: ProviderConfiguration(),
                    options: AuthClientOptions(store: store, storeKey: "acme", environment: { _ in nil }))
                await relaunched.restore()
                let restored = await relaunched.cachedSession
                if data == records.0, StoredRecords.decodeSession(data, identity: Self.identity) == Self.sessionA,
                    restored == Self.sessionA
                {
                    outcome.recordA += 1
                } else if data == records.1,
                    StoredRecords.decodeSession(data, identity: Self.identity) == Self.sessionB,
                    restored == Self.sessionB
                {
                    outcome.recordB += 1
                } else {
                    outcome.corrupt.append(
                        "\(data.count) bytes, decodes: \(StoredRecords.decodeSession(data, identity: Self.identity) != nil), restored: \(restored != nil)"
                    )
                }
            }
            // A write from this process removes what the last kill left, and leaves no temporary file of its own.
            if let data = try await store.load(key: "acme") { try await store.save(data, key: "acme") }
            #expect(Self.temporaryFiles(in: directory) == 0, "temporary files survived a write")
            return outcome
        }

        /// The number of hidden files (the store's temporary files) in a store directory.
        private static func temporaryFiles(in directory: URL) -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix(".") }
                .count
        }

        @Test("SIGKILL at random points of a write loop always leaves the old or the new session")
        func killedWriterNeverCorrupts() async throws {
            let kills = Stress.count(100, stress: 300)
            let outcome = try await run(kills: kills, workers: 2, unsafe: false)
            guard StoreCrasher.url != nil else { return }
            #expect(outcome.kills == kills)
            #expect(outcome.notKilled == 0, "the writer exited on its own")
            #expect(outcome.corrupt.isEmpty, "corrupt records after a kill: \(outcome.corrupt)")
            #expect(outcome.missing == 0, "the record vanished")
            #expect(outcome.recordA + outcome.recordB == kills)
            // The kills must really land inside writes, or this test would prove nothing.
            #expect(outcome.midWrite > 0, "no kill landed between the temporary file's creation and its rename")
            // Temporary files of killed writers never pile up: the next writer removes them.
            #expect(outcome.mostTemporaries == 1, "temporary files after one kill: at most \(outcome.mostTemporaries)")
            reportFigure(
                "SIGKILLs of a writing process",
                "\(outcome.kills) (\(outcome.midWrite) mid-write), old/new record kept: \(outcome.recordA)/\(outcome.recordB), "
                    + "corrupt: \(outcome.corrupt.count), sessions lost: \(outcome.missing), temporary files left: "
                    + "\(outcome.midWrite) (each removed by the next write; at most \(outcome.mostTemporaries) at once)"
            )
        }

        @Test("control: the same kills do corrupt a store that writes in place, so the check above can fail")
        func inPlaceWriterIsCaught() async throws {
            let outcome = try await run(kills: Stress.count(12, stress: 60), workers: 1, unsafe: true)
            guard StoreCrasher.url != nil else { return }
            #expect(!outcome.corrupt.isEmpty || outcome.missing > 0, "no kill caught the in-place writer mid-write")
            reportFigure(
                "control (in-place writer)", "\(outcome.kills) kills, \(outcome.corrupt.count) corrupt records detected"
            )
        }
    }
#endif
