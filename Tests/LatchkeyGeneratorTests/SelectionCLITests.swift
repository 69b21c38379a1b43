// posix_spawn: only where ChildSpawn exists (not iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
    import Foundation
    @_spi(Generated) import LatchkeyTesting
    import Testing

    /// `latchkey-gen generate --select`: what the build plugin runs for an app's `latchkey-providers.json`.
    @Suite struct SelectionCLITests {
        /// A scratch folder with the real catalog (`Descriptors/`) and an app folder holding a selection.
        static func app(selection: String) throws -> URL {
            let directory = try CLITests.workspace()
            let app = directory.appendingPathComponent("App")
            try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
            try Data(selection.utf8).write(to: app.appendingPathComponent("latchkey-providers.json"))
            return directory
        }

        static func generate(in directory: URL, own: [String] = []) async throws -> CLITests.Run {
            try await CLITests.run(
                ["generate", "--select", "App/latchkey-providers.json", "--catalog", "Descriptors", "--output", "Out"]
                    + own, in: directory)
        }

        static func read(_ relative: String, in directory: URL) throws -> String {
            try String(contentsOf: directory.appendingPathComponent(relative), encoding: .utf8)
        }

        @Test func writesOnlyTheSelectedClientsAndTheirIndex() async throws {
            let directory = try Self.app(selection: #"{"providers": ["supabase"]}"#)
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try await Self.generate(in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            let selected = try Self.read("Out/_selected.swift", in: directory)
            #expect(selected.contains("public struct SupabaseClient: LatchkeyRuntime.AuthProviderClient"))
            #expect(
                selected.components(separatedBy: ": LatchkeyRuntime.AuthProviderClient {").count == 2,
                "exactly one client")
            let committed = try Self.read("Generated/supabase.swift", in: directory)
            #expect(selected.hasSuffix(committed), "the client is the catalog's, byte for byte")
            let index = try Self.read("Out/_index.swift", in: directory)
            #expect(index.contains("SupabaseClient.provider,"))
            #expect(index.components(separatedBy: "Client.provider,").count == 2)
            let written = try FileManager.default.contentsOfDirectory(
                atPath: directory.appendingPathComponent("Out").path)
            #expect(written.sorted() == ["_index.swift", "_selected.swift"])
        }

        @Test func indexesTheAppsOwnDescriptorsBesideTheSelection() async throws {
            let directory = try Self.app(selection: #"{"providers": ["oidc", "github"]}"#)
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect(try await CLITests.run(["new", "acme", "--output", "App"], in: directory).status == 0)
            let run = try await Self.generate(in: directory, own: ["App/acme.json"])
            #expect(run.status == 0, "\(run.stderr)")
            let selected = try Self.read("Out/_selected.swift", in: directory)
            #expect(selected.contains("public struct GitHubClient") && selected.contains("public struct OidcClient"))
            #expect(!selected.contains("public struct AcmeClient"), "the app's own clients have commands of their own")
            let index = try Self.read("Out/_index.swift", in: directory)
            #expect(
                index.contains("AcmeClient.provider,\n        GitHubClient.provider,\n        OidcClient.provider,"))
        }

        @Test func anEmptySelectionWritesAFileWithNoClient() async throws {
            let directory = try Self.app(selection: #"{"providers": []}"#)
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect(try await Self.generate(in: directory).status == 0)
            #expect(!(try Self.read("Out/_selected.swift", in: directory)).contains("struct"))
        }

        @Test func anUnknownProviderFailsAtItsLineAndWritesNothing() async throws {
            let directory = try Self.app(selection: "{\n  \"providers\": [\"supabase\", \"supabse\"]\n}\n")
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try await Self.generate(in: directory)
            #expect(run.status == 1)
            #expect(
                run.stderr.contains(
                    "App/latchkey-providers.json:2:29: error: the Latchkey catalog has no provider \"supabse\" "
                        + "(at /providers/1); did you mean \"supabase\"?"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("Out").path))
        }

        @Test func anOwnDescriptorCollidingWithASelectedOneFails() async throws {
            let directory = try Self.app(selection: #"{"providers": ["oidc"]}"#)
            defer { try? FileManager.default.removeItem(at: directory) }
            try FileManager.default.copyItem(
                at: directory.appendingPathComponent("Descriptors/oidc.json"),
                to: directory.appendingPathComponent("App/oidc.json"))
            let run = try await Self.generate(in: directory, own: ["App/oidc.json"])
            #expect(run.status == 1)
            #expect(run.stderr.contains("the client type OidcClient collides"), "\(run.stderr)")
        }

        @Test func selectNeedsACatalog() async throws {
            let directory = try Self.app(selection: #"{"providers": []}"#)
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try await CLITests.run(["generate", "--select", "App/latchkey-providers.json"], in: directory)
            #expect(run.status == 2)
            #expect(run.stderr.contains("--select needs --catalog DIR"))
        }
    }
#endif
