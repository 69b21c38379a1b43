import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The persistent default store, proven with an injected environment whose `HOME` or `XDG_STATE_HOME` is a
/// temporary directory: no test here reads or writes the real home directory.
@Suite("Store: the persistent default store")
struct DefaultSessionStoreTests {
    private func temporaryHome() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-home-\(UUID().uuidString)")
    }

    private func permissions(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// Options with no store given: the default, resolved with `environment`.
    private func defaultOptions(_ harness: AcmeHarness, _ environment: [String: String]) -> AuthClientOptions {
        AuthClientOptions(
            transport: harness.transport, now: { harness.clock.now }, userAgent: "LatchkeyTests/1",
            environment: { environment[$0] })
    }

    private func client(_ harness: AcmeHarness, _ options: AuthClientOptions, clientID: String = "acme-app") throws
        -> AuthClient
    {
        try AuthClient(
            provider: harness.spec,
            configuration: AcmeHarness.configuration(
                harness.server, values: ["clientID": clientID], redirectURI: AcmeHarness.redirect),
            options: options)
    }

    @Test("the state directory: XDG_STATE_HOME, else ~/.local/state; relative or missing values name none")
    func stateDirectory() {
        let both = ["XDG_STATE_HOME": "/x/state", "HOME": "/home/ada"]
        #expect(FileSessionStore.stateDirectory(environment: { both[$0] })?.path == "/x/state/latchkey")
        let home = ["HOME": "/home/ada"]
        #expect(FileSessionStore.stateDirectory(environment: { home[$0] })?.path == "/home/ada/.local/state/latchkey")
        let relative = ["XDG_STATE_HOME": "state", "HOME": "/home/ada"]
        #expect(
            FileSessionStore.stateDirectory(environment: { relative[$0] })?.path == "/home/ada/.local/state/latchkey")
        let none = ["XDG_STATE_HOME": "", "HOME": "relative/home"]
        #expect(FileSessionStore.stateDirectory(environment: { none[$0] }) == nil)
    }

    #if !canImport(Security)
        @Test(
            "with no store given, a sign-in persists to the state directory (0600 in 0700) and a relaunch restores it with no request"
        )
        func persistsByDefault() async throws {
            let home = temporaryHome()
            defer { try? FileManager.default.removeItem(at: home) }
            let harness = try AcmeHarness()
            defer { harness.server.stop() }
            let environment = ["HOME": home.path]
            let options = defaultOptions(harness, environment)
            let store = try #require(options.store as? FileSessionStore)
            let directory = home.appendingPathComponent(".local/state/latchkey")
            #expect(store.directory.path == directory.path)
            let first = try client(harness, options)
            #expect(await first.restore() == .signedOut)
            _ = try await first.signIn(username: "ada@example.com", password: "hunter2")
            let record = store.fileURL(forKey: first.storeKey)
            #expect(record.deletingLastPathComponent().path == directory.path)
            #expect(try permissions(record) == 0o600)
            #expect(try permissions(directory) == 0o700)
            // Directories the store had to create on the way are private too (XDG Base Directory: 0700).
            #expect(try permissions(home.appendingPathComponent(".local/state")) == 0o700)
            #expect(try permissions(home.appendingPathComponent(".local")) == 0o700)
            #expect(harness.server.requests.count == 1)

            // A relaunch: a new client with default options finds the session, without any request.
            let relaunched = try client(harness, defaultOptions(harness, environment))
            #expect(await relaunched.restore().user?.email == "ada@example.com")
            #expect(try await relaunched.validAccessToken() == "at-1")
            #expect(harness.server.requests.count == 1)

            // Bound to the client: another client id on the same default store starts signed out.
            let other = try client(harness, defaultOptions(harness, environment), clientID: "other-app")
            #expect(await other.restore() == .signedOut)
            #expect(harness.server.requests.count == 1)
        }

        @Test("XDG_STATE_HOME wins over HOME")
        func xdgStateHome() async throws {
            let root = temporaryHome()
            defer { try? FileManager.default.removeItem(at: root) }
            let harness = try AcmeHarness()
            defer { harness.server.stop() }
            let state = root.appendingPathComponent("state")
            let options = defaultOptions(
                harness, ["XDG_STATE_HOME": state.path, "HOME": root.appendingPathComponent("home").path])
            let client = try client(harness, options)
            _ = try await client.signIn(username: "ada@example.com", password: "hunter2")
            let names = try FileManager.default.contentsOfDirectory(
                atPath: state.appendingPathComponent("latchkey").path)
            #expect(names.contains(client.storeKey + ".json"), "\(names)")
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("home").path))
        }

        @Test("no state directory: a clear invalid_configuration from restore and sign-in, no crash, nothing written")
        func noStateDirectory() async throws {
            let harness = try AcmeHarness()
            defer { harness.server.stop() }
            let client = try client(harness, defaultOptions(harness, [:]))
            guard case .failed(let error) = await client.restore() else {
                Issue.record("restore() should fail without a state directory")
                return
            }
            #expect(error.code == .invalidConfiguration)
            #expect(error.message.contains("XDG_STATE_HOME") && error.message.contains("InMemorySessionStore"))
            #expect(harness.server.requests.isEmpty)
            await expectAuthError(.invalidConfiguration) {
                _ = try await client.signIn(username: "ada@example.com", password: "hunter2")
            }
        }

        @Test("a state directory that cannot be made is a store error that names it, not a crash")
        func directoryCannotBeMade() async throws {
            let home = temporaryHome()
            defer { try? FileManager.default.removeItem(at: home) }
            // HOME is a regular file: nothing can be created beneath it.
            try Data("not a directory".utf8).write(to: home)
            let harness = try AcmeHarness()
            defer { harness.server.stop() }
            let client = try client(harness, defaultOptions(harness, ["HOME": home.path]))
            let error = await #expect(throws: AuthError.self) {
                _ = try await client.signIn(username: "ada@example.com", password: "hunter2")
            }
            #expect(error?.code == .storeUnavailable || error?.code == .storeFailed, "\(String(describing: error))")
            #expect(error?.message.contains(".local/state/latchkey") == true, "\(String(describing: error))")
        }
    #endif

    @Test("InMemorySessionStore is the explicit opt-out: nothing reaches the state directory")
    func inMemoryOptOut() async throws {
        let home = temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let environment = ["HOME": home.path]
        let options = AuthClientOptions(
            transport: harness.transport, store: InMemorySessionStore(), environment: { environment[$0] })
        let client = try client(harness, options)
        _ = try await client.signIn(username: "ada@example.com", password: "hunter2")
        #expect(!FileManager.default.fileExists(atPath: home.path))
    }

    @Test("the rule per platform: apps use the keychain, macOS tools and Linux a file store, no HOME names none")
    func choicePerPlatform() {
        let home = ["HOME": "/Users/ada"]
        #expect(
            DefaultStoreChoice.choose(platform: .appleMobile, bundleIdentifier: nil, environment: { _ in nil })
                == .keychain)
        #expect(
            DefaultStoreChoice.choose(platform: .macOS, bundleIdentifier: "com.example.app", environment: { home[$0] })
                == .keychain)
        // `swift run` on macOS: no bundle, and the data-protection keychain would answer -34018.
        #expect(
            DefaultStoreChoice.choose(platform: .macOS, bundleIdentifier: nil, environment: { home[$0] })
                == .directory(
                    URL(fileURLWithPath: "/Users/ada/Library/Application Support/latchkey", isDirectory: true)))
        #expect(
            DefaultStoreChoice.choose(platform: .macOS, bundleIdentifier: "", environment: { home[$0] })
                == .directory(
                    URL(fileURLWithPath: "/Users/ada/Library/Application Support/latchkey", isDirectory: true)))
        let relative = ["HOME": "Users/ada"]
        guard
            case .unavailable(let message) = DefaultStoreChoice.choose(
                platform: .macOS, bundleIdentifier: nil, environment: { relative[$0] })
        else {
            Issue.record("a relative HOME must name no directory")
            return
        }
        #expect(message.contains("HOME"))
        let linux = ["HOME": "/home/ada"]
        #expect(
            DefaultStoreChoice.choose(platform: .other, bundleIdentifier: nil, environment: { linux[$0] })
                == .directory(URL(fileURLWithPath: "/home/ada/.local/state/latchkey", isDirectory: true)))
        guard
            case .unavailable = DefaultStoreChoice.choose(
                platform: .other, bundleIdentifier: nil, environment: { _ in nil })
        else {
            Issue.record("no HOME on Linux must name no directory")
            return
        }
    }

    #if canImport(Security)
        @Test("on Apple platforms an app's default is the keychain; a bare macOS tool's is a file store")
        func keychainOnApple() {
            let store = AuthClientOptions.defaultStore(environment: { $0 == "HOME" ? "/Users/ada" : nil })
            if Bundle.main.bundleIdentifier?.isEmpty == false {
                #expect(store is KeychainSessionStore)
            } else {
                #expect(store is FileSessionStore)
            }
        }
    #endif
}
