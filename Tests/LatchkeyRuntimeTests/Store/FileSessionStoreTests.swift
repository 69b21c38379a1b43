import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Store: file store")
struct StoreFileSessionStoreTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-store-\(UUID().uuidString)/nested")
    }

    private func permissions(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("writes are 0600 in a 0700 directory, atomic, and leave no temporary files")
    func permissionsAndAtomicity() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let store = FileSessionStore(directory: directory)
        #expect(try await store.load(key: "acme") == nil)
        try await store.save(Data("first".utf8), key: "acme")
        try await store.save(Data("second".utf8), key: "acme")
        #expect(try await store.load(key: "acme") == Data("second".utf8))
        #expect(try permissions(store.fileURL(forKey: "acme")) == 0o600)
        #expect(try permissions(directory) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["acme.json"])
        try await store.remove(key: "acme")
        try await store.remove(key: "acme")
        #expect(try await store.load(key: "acme") == nil)
    }

    @Test("keys become safe file names inside the directory")
    func keyNames() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let store = FileSessionStore(directory: directory)
        let keys = ["../../etc/passwd", ".hidden", "a/b", String(repeating: "k", count: 300), "acme.pending"]
        for key in keys {
            try await store.save(Data(key.utf8), key: key)
            #expect(try await store.load(key: key) == Data(key.utf8))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.count == keys.count)
        #expect(names.allSatisfy { !$0.hasPrefix(".") && $0.hasSuffix(".json") })
        #expect(names.contains("acme.pending.json"))
        let parent = try FileManager.default.contentsOfDirectory(atPath: directory.deletingLastPathComponent().path)
        #expect(parent == ["nested"])
    }

    @Test("an unreadable record is store_unavailable, never nil")
    func unreadable() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let store = FileSessionStore(directory: directory)
        try FileManager.default.createDirectory(at: store.fileURL(forKey: "acme"), withIntermediateDirectories: true)
        await expectAuthError(.storeUnavailable) { _ = try await store.load(key: "acme") }
    }

    @Test("a corrupt record restores as signed out with a diagnostic, and a session round-trips")
    func corruptRecord() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let store = FileSessionStore(directory: directory)
        let harness = try AcmeHarness(store: store)
        defer { harness.server.stop() }
        let key = harness.client.storeKey
        try await store.save(Data("{\"version\":2,\"session\":{\"acc".utf8), key: key)
        #expect(await harness.client.restore() == .signedOut)
        #expect(harness.logs.all.contains { $0.message.contains("corrupt") && $0.level <= .info })
        try await harness.signIn()
        let text = String(decoding: try await store.load(key: key) ?? Data(), as: UTF8.self)
        #expect(text.hasPrefix("{\"binding\":\"\(harness.client.identity.digest)\",\"provider\":\"acme\",\"session\":"))
        #expect(text.contains("\"version\":2"))
        let relaunched = try harness.makeClient(store: FileSessionStore(directory: directory))
        #expect(await relaunched.restore().user?.email == "ada@example.com")
        #expect(try await relaunched.validAccessToken() == "at-1")
        #expect(harness.server.requests.count == 1)
    }

    @Test("the default directory follows XDG_DATA_HOME, then HOME")
    func defaultDirectory() {
        #if !canImport(Darwin)
            #expect(
                FileSessionStore.defaultDirectory(environment: ["XDG_DATA_HOME": "/x/data"]).path == "/x/data/latchkey")
            #expect(
                FileSessionStore.defaultDirectory(environment: ["HOME": "/home/ada"]).path
                    == "/home/ada/.local/share/latchkey")
        #endif
    }
}
