import Foundation
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

/// Issue 8: the temporary files that a writer killed between `mkstemp` and `rename` leaves behind are removed
/// by the next write or removal of the same key, unless a live writer holds them.
@Suite("Reliability: stale temporary files of the file store")
struct ReliabilityStoreTemporaryTests {
    /// The directory's entries, sorted.
    private static func entries(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// Creates a file with some bytes, mode 0600.
    private static func makeFile(_ directory: URL, _ name: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data("partial record".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }

    @Test("a write removes the key's dead temporary files, and only those")
    func writeRemovesDeadTemporaries() async throws {
        let scratch = ScratchDirectory("temporaries")
        defer { scratch.remove() }
        let store = FileSessionStore(directory: scratch.url)
        let dead = [".acme.json.Ab12Cd", ".acme.json.zzzzzz"]
        // Another key's temporary file, near-misses of the pattern, and the lock file stay.
        let others = [
            ".other.json.Ab12Cd", ".acme.json.Ab12C", ".acme.json.Ab12Cd7", ".acme.json.Ab-2Cd",
            ".acme.json.json.Ab12Cd",
            "acme.json.lock", "notes.txt",
        ]
        for name in dead + others { try Self.makeFile(scratch.url, name) }
        try await store.save(Data("record".utf8), key: "acme")
        #expect(try Self.entries(scratch.url) == (others + ["acme.json"]).sorted())
        #expect(try await store.load(key: "acme") == Data("record".utf8))
    }

    @Test("a temporary file a live writer holds locked stays until its lock is released")
    func lockedTemporaryStays() async throws {
        let scratch = ScratchDirectory("temporaries")
        defer { scratch.remove() }
        let store = FileSessionStore(directory: scratch.url)
        try Self.makeFile(scratch.url, ".acme.json.Live01")
        let path = scratch.url.appendingPathComponent(".acme.json.Live01").path
        // A writer in the middle of its write: the file open and locked (another open file description, as
        // another process would have).
        let writer = open(path, O_RDWR | O_CLOEXEC)
        try #require(writer >= 0)
        #expect(flock(writer, LOCK_EX | LOCK_NB) == 0)
        try await store.save(Data("one".utf8), key: "acme")
        try await store.remove(key: "acme")
        #expect(try Self.entries(scratch.url) == [".acme.json.Live01"])
        _ = close(writer)
        // The lock belongs to the open file description: a child another test spawns at this moment holds a
        // copy until its exec closes it, so the release can take a moment to show.
        let deadline = MonotonicInstant.now + .seconds(60)
        repeat {
            try await store.save(Data("two".utf8), key: "acme")
            if try Self.entries(scratch.url) == ["acme.json"] { break }
            try await LatchkeyDuration.sleep(.milliseconds(10))
        } while MonotonicInstant.now < deadline
        #expect(try Self.entries(scratch.url) == ["acme.json"])
    }

    @Test("a removal removes dead temporary files too; a key without any is untouched")
    func removalRemovesDeadTemporaries() async throws {
        let scratch = ScratchDirectory("temporaries")
        defer { scratch.remove() }
        let store = FileSessionStore(directory: scratch.url)
        try await store.save(Data("record".utf8), key: "acme")
        try Self.makeFile(scratch.url, ".acme.json.Qw3rTy")
        try await store.remove(key: "acme")
        #expect(try Self.entries(scratch.url).isEmpty)
        #expect(store.removeStaleTemporaries(forKey: "acme") == 0)
        // A hashed key name has its own pattern.
        let key = "user@example.com/app"
        let name = FileSessionStore.temporaryPrefix(forKey: key) + "Zx9Yw8"
        #expect(name.hasPrefix(".h-"))
        try Self.makeFile(scratch.url, name)
        #expect(store.removeStaleTemporaries(forKey: "acme") == 0)
        #expect(store.removeStaleTemporaries(forKey: key) == 1)
        #expect(try Self.entries(scratch.url).isEmpty)
    }

    @Test("a write's own temporary file is locked while it exists and gone once the record is in place")
    func writerLocksItsTemporary() throws {
        let scratch = ScratchDirectory("temporaries")
        defer { scratch.remove() }
        let store = FileSessionStore(directory: scratch.url)
        try FileManager.default.createDirectory(at: scratch.url, withIntermediateDirectories: true)
        let (descriptor, path) = try store.createLockedTemporary(forKey: "acme")
        defer { _ = close(descriptor) }
        #expect(FileSessionStore.isTemporary(URL(fileURLWithPath: path).lastPathComponent, prefix: ".acme.json."))
        // Another open file description cannot take the lock, so no cleanup removes a live write.
        let other = open(path, O_RDONLY | O_CLOEXEC)
        try #require(other >= 0)
        defer { _ = close(other) }
        #expect(flock(other, LOCK_EX | LOCK_NB) != 0)
        #expect(store.removeStaleTemporaries(forKey: "acme") == 0)
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
