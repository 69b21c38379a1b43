// posix_spawn: only where ChildSpawn exists (not iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
    import Foundation
    @_spi(Generated) import LatchkeyTesting
    import Testing

    /// `latchkey-gen` as users run it: exit codes, diagnostics on stderr, files written.
    @Suite struct CLITests {
        struct Run {
            var status: Int32
            var stdout: String
            var stderr: String
        }

        static var binary: URL? { BuildProducts.executable("latchkey-gen") }

        static func run(_ arguments: [String], in directory: URL) async throws -> Run {
            guard let binary else {
                Issue.record("latchkey-gen is not built next to the tests; run `swift build` first")
                return Run(status: -1, stdout: "", stderr: "")
            }
            return try await DedicatedThread.run { try runBlocking(binary, arguments, in: directory) }
        }

        /// Not Foundation's `Process`: see ``ChildProgram`` for the crash its `run()` causes in this test process.
        static func runBlocking(_ binary: URL, _ arguments: [String], in directory: URL) throws -> Run {
            let output = try ChildProgram.run(binary, arguments, in: directory)
            return Run(
                status: output.status, stdout: String(decoding: output.stdout, as: UTF8.self),
                stderr: String(decoding: output.stderr, as: UTF8.self))
        }

        /// A scratch package folder with copies of the real descriptors, templates and mirror.
        static func workspace() throws -> URL {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-cli-\(UUID())")
            for folder in ["Descriptors", "Templates", "Generated"] {
                try FileManager.default.copyItem(
                    at: PackageRoot.url.appendingPathComponent(folder), to: directory.appendingPathComponent(folder))
            }
            return directory
        }

        @Test func checkPassesOnTheCommittedMirror() async throws {
            let directory = try Self.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try await Self.run(["check"], in: directory)
            #expect(run.status == 0, "\(run.stderr)\(run.stdout)")
        }

        @Test func checkFailsWithADiffNamingTheDescriptor() async throws {
            let directory = try Self.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("Descriptors/oidc.json")
            let edited = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
                of: "\"displayName\": \"OpenID Connect\"", with: "\"displayName\": \"OpenID Connect (edited)\"")
            try edited.write(to: file, atomically: true, encoding: .utf8)
            let run = try await Self.run(["check"], in: directory)
            #expect(run.status == 1)
            #expect(run.stderr.contains("Descriptors/oidc.json:1:1: error: Generated/oidc.swift differs"))
            #expect(run.stdout.contains("+++ b/Generated/oidc.swift (generated from Descriptors/oidc.json)"))
            #expect(run.stdout.contains("+/// A client for OpenID Connect (edited), generated from its descriptor."))
        }

        @Test func checkReportsAFileWhoseDescriptorWasRemoved() async throws {
            let directory = try Self.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            try FileManager.default.removeItem(at: directory.appendingPathComponent("Descriptors/sap-cdc.json"))
            let run = try await Self.run(["check"], in: directory)
            #expect(run.status == 1)
            #expect(run.stderr.contains("Generated/sap-cdc.swift:1:1: error: no descriptor generates this file"))
            let prune = try await Self.run(["generate", "--prune"], in: directory)
            #expect(prune.status == 0)
            #expect(
                !FileManager.default.fileExists(
                    atPath: directory.appendingPathComponent("Generated/sap-cdc.swift").path))
            #expect(try await Self.run(["check"], in: directory).status == 0)
        }

        @Test func generateWritesOnlyChangedFiles() async throws {
            let directory = try Self.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("Generated/supabase.swift")
            let past = Date(timeIntervalSince1970: 1_000_000)
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: file.path)
            #expect(try await Self.run(["generate"], in: directory).status == 0)
            let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
            #expect(modified == past, "an unchanged file must not be rewritten")
        }

        /// Clients are written in the order given as they are rendered: when one fails to render, the ones
        /// before it are written and none after it, and the run fails naming the template's missing value.
        @Test func aRenderFailureStopsTheWritingThere() async throws {
            let directory = try Self.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            let template = directory.appendingPathComponent("Templates/Client.swift.template")
            let source = try String(contentsOf: template, encoding: .utf8)
            // Only a descriptor with a password flow reaches the missing value: of these, supabase alone.
            try ("{{#if hasPassword}}{{noSuchValue | code}}{{/if}}\n" + source).write(
                to: template, atomically: true, encoding: .utf8)
            let before = ["amazon", "apple", "asana"]
            let after = ["box", "discord", "dropbox"]
            let files = (before + ["supabase"] + after).map { "Descriptors/\($0).json" }
            let run = try await Self.run(["generate", "--output", "Out"] + files, in: directory)
            #expect(run.status != 0)
            #expect(run.stderr.contains("noSuchValue"), "\(run.stderr)")
            for name in before + ["supabase"] + after {
                let written = FileManager.default.fileExists(
                    atPath: directory.appendingPathComponent("Out/\(name).swift").path)
                #expect(written == before.contains(name), "\(name).swift")
            }
        }

        @Test(arguments: [
            ("", "the file is empty"),
            ("{", "unexpected end of file"),
            ("{\"a\": 1,}", "trailing comma"),
            ("[]", "must be a JSON object"),
            ("{\"formatVersion\": 1, \"name\": \"bad\", \"displayName\": \"x\", \"nmae\": 1}", "did you mean \"name\""),
        ])
        func validateReportsLocatedErrors(text: String, fragment: String) async throws {
            let directory = try Self.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            try Data(text.utf8).write(to: directory.appendingPathComponent("bad.json"))
            let run = try await Self.run(["validate", "bad.json"], in: directory)
            #expect(run.status == 1)
            let line = try #require(run.stderr.split(separator: "\n").first.map(String.init))
            #expect(line.range(of: #"^bad\.json:\d+:\d+: error: "#, options: .regularExpression) != nil, "\(line)")
            #expect(run.stderr.contains(fragment), "\(run.stderr)")
        }

        @Test func validatePrintsOneLinePerValidFile() async throws {
            let directory = try Self.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            let files = ["Descriptors/oidc.json", "Descriptors/supabase.json"]
            let run = try await Self.run(["validate"] + files, in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.isEmpty)
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(run.stdout)")
            for (file, line) in zip(files, lines) {
                let pattern = #"^\#(file): valid \(\d+ flows?, \d+ actions?, \d+ inputs?, \d+ error rows?\)$"#
                #expect(line.range(of: pattern, options: .regularExpression) != nil, "\(line)")
            }
            try Data("{".utf8).write(to: directory.appendingPathComponent("bad.json"))
            let mixed = try await Self.run(["validate", "bad.json", "Descriptors/oidc.json"], in: directory)
            #expect(mixed.status == 1)
            #expect(mixed.stdout.hasPrefix("Descriptors/oidc.json: valid ("), "\(mixed.stdout)")
            #expect(!mixed.stdout.contains("bad.json"))
            let quiet = try await Self.run(["validate", "--quiet", "Descriptors/oidc.json"], in: directory)
            #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet.stdout)")
        }

        @Test func deepNestingIsAnErrorNotACrash() async throws {
            let directory = try Self.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            try Data(String(repeating: "[", count: 300_000).utf8).write(
                to: directory.appendingPathComponent("deep.json"))
            let run = try await Self.run(["validate", "deep.json"], in: directory)
            #expect(run.status == 1)
            #expect(run.stderr.contains("nesting deeper than"))
        }

        @Test(arguments: [["bogus"], ["validate"], ["generate", "--nope"], ["new"], ["new", "Not_Valid"], [String]()])
        func usageErrorsExitTwo(arguments: [String]) async throws {
            let directory = try Self.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try await Self.run(arguments, in: directory)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(!run.stderr.isEmpty)
        }

        @Test func newWritesADescriptorThatValidatesAndRefusesToOverwrite() async throws {
            let directory = try Self.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect(try await Self.run(["new", "acme-id"], in: directory).status == 0)
            #expect(try await Self.run(["validate", "Descriptors/acme-id.json"], in: directory).status == 0)
            #expect(try await Self.run(["generate", "Descriptors/acme-id.json"], in: directory).status == 0)
            let generated = try String(
                contentsOf: directory.appendingPathComponent("Generated/acme-id.swift"), encoding: .utf8)
            #expect(generated.contains("public struct AcmeIdClient"))
            let again = try await Self.run(["new", "acme-id"], in: directory)
            #expect(again.status == 1)
        }

        @Test func newFromDiscoveryFillsTheIssuer() async throws {
            let directory = try Self.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            let document =
                #"{"issuer": "https://login.example.com/", "scopes_supported": ["openid", "email", "phone"]}"#
            try Data(document.utf8).write(to: directory.appendingPathComponent("discovery.json"))
            #expect(
                try await Self.run(["new", "example", "--from-discovery", "discovery.json"], in: directory).status == 0)
            let text = try String(
                contentsOf: directory.appendingPathComponent("Descriptors/example.json"), encoding: .utf8)
            #expect(text.contains(#""default": "https://login.example.com/""#))
            #expect(text.contains(#""scopes": ["openid", "email"]"#))
        }

        @Test func helpExitsZero() async throws {
            let directory = try Self.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            for arguments in [["--help"], ["help", "generate"], ["check", "--help"]] {
                let run = try await Self.run(arguments, in: directory)
                #expect(run.status == 0)
                #expect(run.stdout.contains("USAGE") || run.stdout.contains("OVERVIEW"))
            }
        }
    }
#endif
