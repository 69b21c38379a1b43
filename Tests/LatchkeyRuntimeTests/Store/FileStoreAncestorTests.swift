import Foundation
@_spi(Generated) import LatchkeyTesting
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Another user who can rename entries above the store's directory can move it away before a sign-out and back
/// afterwards, restoring the session the user ended: the file store refuses such ancestors (issue 28, item 3).
@Suite("Store: the file store checks every ancestor of its directory")
struct FileStoreAncestorTests {
    @Test(
        "AncestorTrust.verdict over (mode, owner, isSymlink, uid)",
        arguments: [
            // st_mode as lstat reports it (file type bits included), owner, symlink, current uid, trusted
            (0o040755 as UInt32, 0 as UInt32, false, 1000 as UInt32, true),  // /, /home: root's, 0755
            (0o040700, 1000, false, 1000, true),  // ~: the user's own
            (0o040775, 1000, false, 1000, false),  // ~/.local/state, group-writable (user-private groups)
            (0o040777, 1000, false, 1000, false),  // a 0777 XDG_STATE_HOME, even the user's own
            (0o041777, 0, false, 1000, true),  // /tmp: 01777, root's, sticky
            (0o041777, 1001, false, 1000, false),  // a sticky directory of another user's: they can chmod it
            (0o040755, 1001, false, 1000, false),  // another user's directory, not writable by us: still theirs
            (0o040770, 0, false, 1000, false),  // root's, group-writable without sticky
            (0o040002, 0, false, 1000, false),  // others may write, nothing else
            (0o120777, 1000, true, 1000, true),  // a symbolic link of the user's own (a link's mode is 0777)
            (0o120777, 0, true, 1000, true),  // /var -> private/var on macOS: root's link
            (0o120777, 1001, true, 1000, false),  // a link planted by another user
            (0o040777, 0, false, 0, false),  // running as root does not make a 0777 parent safe
        ])
    func verdict(mode: UInt32, owner: UInt32, isSymlink: Bool, uid: UInt32, trusted: Bool) {
        let verdict = AncestorTrust.verdict(mode: mode, owner: owner, isSymlink: isSymlink, uid: uid)
        #expect((verdict == .trusted) == trusted, "\(String(mode, radix: 8)) owner \(owner): \(verdict)")
    }

    /// A scratch folder `root/parent/latchkey`, with the parent's mode and owner set by each test.
    private struct Scratch {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-ancestors-\(UUID().uuidString)", isDirectory: true)
        var parent: URL { root.appendingPathComponent("parent", isDirectory: true) }
        var store: URL { parent.appendingPathComponent("latchkey", isDirectory: true) }

        init() throws {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            chmod(root.path, 0o755)
            chmod(parent.path, 0o755)
        }

        func remove() {
            chmod(parent.path, 0o755)
            _ = chown(parent.path, geteuid(), getegid())
            try? FileManager.default.removeItem(at: root)
        }
    }

    private static let record = Data(#"{"v":1}"#.utf8)

    @Test("a 0755 parent of the user's own is trusted: save and load work")
    func privateParent() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = FileSessionStore(directory: scratch.store)
        try await store.save(Self.record, key: "k")
        #expect(try await store.load(key: "k") == Self.record)
    }

    @Test("a 0777 parent is refused with store_unavailable naming it, for load, save, remove and the refresh lock")
    func worldWritableParent() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = FileSessionStore(directory: scratch.store)
        try await store.save(Self.record, key: "k")
        #expect(chmod(scratch.parent.path, 0o777) == 0)
        for (name, operation) in Self.operations(store) {
            let error = await #expect(throws: AuthError.self, "\(name)") { try await operation() }
            #expect(error?.code == .storeUnavailable, "\(name)")
            #expect(error?.message.contains(scratch.parent.path) == true, "\(name): \(error?.message ?? "")")
        }
    }

    @Test("01777 with the sticky bit, owned by root (as /tmp), is trusted")
    func stickyRootParent() async throws {
        guard geteuid() == 0 else { return }  // only root can give the parent to root
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect(chmod(scratch.parent.path, 0o1777) == 0)
        let store = FileSessionStore(directory: scratch.store)
        try await store.save(Self.record, key: "k")
        #expect(try await store.load(key: "k") == Self.record)
    }

    @Test("a parent owned by another user (65534) is refused, even 0755")
    func foreignParent() async throws {
        guard geteuid() == 0 else { return }  // chown to another user needs root
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = FileSessionStore(directory: scratch.store)
        try await store.save(Self.record, key: "k")
        #expect(chown(scratch.parent.path, 65534, 65534) == 0)
        let error = await #expect(throws: AuthError.self) { try await store.load(key: "k") }
        #expect(error?.code == .storeUnavailable)
        #expect(error?.message.contains("owned by user 65534") == true)
    }

    @Test("a symbolic link on the way owned by another user is refused; the user's own link to a safe place is not")
    func plantedLink() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let link = scratch.root.appendingPathComponent("link", isDirectory: true)
        #expect(symlink(scratch.parent.path, link.path) == 0)
        let store = FileSessionStore(directory: link.appendingPathComponent("latchkey", isDirectory: true))
        try await store.save(Self.record, key: "k")
        #expect(try await store.load(key: "k") == Self.record)
        guard geteuid() == 0 else { return }  // lchown to another user needs root
        #expect(lchown(link.path, 65534, 65534) == 0)
        let error = await #expect(throws: AuthError.self) { try await store.load(key: "k") }
        #expect(error?.code == .storeUnavailable)
        #expect(error?.message.contains("symbolic link owned by user 65534") == true)
    }

    @Test("a link of the user's own that leads below a 0777 directory is refused: the real path is checked too")
    func linkIntoWritableDirectory() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect(chmod(scratch.parent.path, 0o777) == 0)
        let link = scratch.root.appendingPathComponent("link", isDirectory: true)
        #expect(symlink(scratch.parent.path, link.path) == 0)
        let store = FileSessionStore(directory: link.appendingPathComponent("latchkey", isDirectory: true))
        let error = await #expect(throws: AuthError.self) { try await store.save(Self.record, key: "k") }
        #expect(error?.code == .storeUnavailable)
        #expect(error?.message.contains("parent, above it") == true, "the real path is named")
    }

    private static func operations(_ store: FileSessionStore) -> [(String, @Sendable () async throws -> Void)] {
        [
            ("load", { _ = try await store.load(key: "k") }),
            ("save", { try await store.save(Self.record, key: "k") }),
            ("remove", { try await store.remove(key: "k") }),
            ("refresh lock", { _ = try await store.withExclusiveRefresh(key: "k") { () throws(AuthError) in 1 } }),
        ]
    }
}
