import Foundation
import LatchkeyDescriptor
import Testing

/// One rule says which files are descriptors, for the CLI, the selection and both build plugins (issue 19).
@Suite struct DescriptorFileRuleTests {
    @Test(arguments: [
        ("supabase.json", true), ("descriptor.schema.json", false), ("latchkey-providers.json", false),
        ("notes.md", false), ("supabase.json.bak", false), (".json", false), ("x.JSON", false),
    ])
    func rule(fileName: String, isDescriptor: Bool) {
        #expect(DescriptorFileRule.isDescriptor(fileName: fileName) == isDescriptor)
    }

    @Test func theSelectionFileIsNamedByTheRule() {
        #expect(ProviderSelection.fileName == DescriptorFileRule.selectionFileName)
    }

    // posix_spawn: not on iOS, tvOS, watchOS, visionOS.
    #if os(macOS) || os(Linux)
        @Test func theCLIPassesOverASelectionFileInTheDescriptorsFolder() async throws {
            let directory = try CLITests.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            try Data(#"{"providers": ["supabase"]}"#.utf8).write(
                to: directory.appendingPathComponent("Descriptors/latchkey-providers.json"))
            let run = try await CLITests.run(["check"], in: directory)
            #expect(run.status == 0, "\(run.stderr)\(run.stdout)")
        }
    #endif

    @Test func bothPluginsCompileTheSharedRuleFile() throws {
        let target = PackageRoot.url.appendingPathComponent("Sources/LatchkeyDescriptor/DescriptorFileRule.swift")
        for plugin in ["LatchkeyBuildPlugin", "LatchkeyDescriptorCheck"] {
            let link = PackageRoot.url.appendingPathComponent("Plugins/\(plugin)/DescriptorFileRule.swift")
            let destination = try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
            #expect(
                link.deletingLastPathComponent().appendingPathComponent(destination).standardizedFileURL.path
                    == target.standardizedFileURL.path)
        }
    }
}
