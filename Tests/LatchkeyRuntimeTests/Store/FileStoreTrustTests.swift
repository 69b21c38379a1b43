import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file store trusts nothing it finds: links, other users' files and loose modes (issue 15, item 13).
@Suite("Store: the file store trusts nothing it finds")
struct FileStoreTrustTests {
    /// A scratch folder holding the store directory `store` and a place for link targets, `elsewhere`.
    private struct Scratch {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-trust-\(UUID().uuidString)", isDirectory: true)
        var store: URL { root.appendingPathComponent("store", isDirectory: true) }
        var elsewhere: URL { root.appendingPathComponent("elsewhere", isDirectory: true) }

        init() throws {
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    private func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return ((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o777
    }

    @Test("a symbolic link planted at a record path is not read: store_unavailable, and restore is not signed out")
    func symlinkedRecordIsRefused() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = FileSessionStore(directory: scratch.store)
        let harness = try AcmeHarness(store: store)
        defer { harness.server.stop() }
        try await harness.signIn()
        let planted = scratch.elsewhere.appendingPathComponent("planted.json")
        try FileManager.default.copyItem(at: store.fileURL(forKey: harness.client.storeKey), to: planted)
        try FileManager.default.removeItem(at: store.fileURL(forKey: harness.client.storeKey))
        try FileManager.default.createSymbolicLink(
            at: store.fileURL(forKey: harness.client.storeKey), withDestinationURL: planted)

        await expectAuthError(.storeUnavailable) { _ = try await store.load(key: harness.client.storeKey) }
        let relaunched = try harness.makeClient()
        let state = await relaunched.restore()
        guard case .failed(let error) = state else {
            Issue.record("restored as \(state), not failed(store_unavailable)")
            return
        }
        #expect(error.code == .storeUnavailable)
        #expect(await relaunched.cachedSession == nil)
    }

    @Test("a FIFO at a record path does not hang the read: store_unavailable")
    func fifoRecordIsRefused() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = FileSessionStore(directory: scratch.store)
        try await store.save(Data("x".utf8), key: "acme")
        try FileManager.default.removeItem(at: store.fileURL(forKey: "acme"))
        #expect(mkfifo(store.fileURL(forKey: "acme").path, 0o600) == 0)
        await expectAuthError(.storeUnavailable) { _ = try await store.load(key: "acme") }
    }

    @Test("a symbolic link at a lock path creates nothing where it points: store_unavailable")
    func symlinkedLockIsRefused() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = FileSessionStore(directory: scratch.store)
        try await store.save(Data("record".utf8), key: "acme")
        let target = scratch.elsewhere.appendingPathComponent("created-by-the-lock")
        try FileManager.default.createSymbolicLink(at: store.lockURL(forKey: "acme"), withDestinationURL: target)
        await expectAuthError(.storeUnavailable) { try await store.withExclusiveRefresh(key: "acme") {} }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test("a store directory of the user's own with mode 0777 is made 0700; loose record and lock files 0600")
    func looseModesAreTightened() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.store, withIntermediateDirectories: true)
        #expect(chmod(scratch.store.path, 0o777) == 0)
        let store = FileSessionStore(directory: scratch.store)
        #expect(try await store.load(key: "acme") == nil)
        #expect(try mode(scratch.store) == 0o700)

        #expect(chmod(scratch.store.path, 0o777) == 0)
        try await store.save(Data("record".utf8), key: "acme")
        #expect(try mode(scratch.store) == 0o700)
        #expect(try mode(store.fileURL(forKey: "acme")) == 0o600)

        #expect(chmod(store.fileURL(forKey: "acme").path, 0o644) == 0)
        #expect(try await store.load(key: "acme") == Data("record".utf8))
        #expect(try mode(store.fileURL(forKey: "acme")) == 0o600)

        try await store.withExclusiveRefresh(key: "acme") {}
        #expect(chmod(store.lockURL(forKey: "acme").path, 0o666) == 0)
        try await store.withExclusiveRefresh(key: "acme") {}
        #expect(try mode(store.lockURL(forKey: "acme")) == 0o600)
    }

    @Test("a store directory that is a symbolic link is not followed: nothing read or written through it")
    func symlinkedDirectoryIsRefused() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Data("planted".utf8).write(to: scratch.elsewhere.appendingPathComponent("acme.json"))
        try FileManager.default.createSymbolicLink(at: scratch.store, withDestinationURL: scratch.elsewhere)
        let store = FileSessionStore(directory: scratch.store)
        await expectAuthError(.storeUnavailable) { _ = try await store.load(key: "acme") }
        await expectAuthError(.storeFailed) { try await store.save(Data("secret".utf8), key: "other") }
        await expectAuthError(.storeFailed) { try await store.remove(key: "acme") }
        await expectAuthError(.storeUnavailable) { try await store.withExclusiveRefresh(key: "acme") {} }
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.elsewhere.path)
        #expect(names == ["acme.json"])
    }

    @Test("a store directory owned by another user is refused, and left as it is")
    func othersDirectoryIsRefused() async throws {
        // Only root can give a directory to another user; elsewhere, another user's directory is the root's `/`.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let directory: URL
        if geteuid() == 0 {
            try FileManager.default.createDirectory(at: scratch.store, withIntermediateDirectories: true)
            #expect(chmod(scratch.store.path, 0o777) == 0)
            #expect(chown(scratch.store.path, 65534, 65534) == 0)
            directory = scratch.store
        } else {
            directory = URL(fileURLWithPath: "/", isDirectory: true)
        }
        let store = FileSessionStore(directory: directory)
        await expectAuthError(.storeUnavailable) { _ = try await store.load(key: "acme") }
        await expectAuthError(.storeFailed) { try await store.save(Data("secret".utf8), key: "acme") }
        await expectAuthError(.storeUnavailable) { try await store.withExclusiveRefresh(key: "acme") {} }
        if geteuid() == 0 {
            #expect(try mode(directory) == 0o777, "another user's directory is not changed")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }
}
