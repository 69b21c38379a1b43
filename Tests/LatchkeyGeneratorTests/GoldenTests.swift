import Foundation
import LatchkeyDescriptor
import LatchkeyGenerator
import Testing

/// Every descriptor's output equals its committed file in Generated/, byte for byte.
@Suite struct GoldenTests {
    @Test(arguments: try PackageRoot.descriptorFiles())
    func generatedMirrorMatches(descriptorFile: String) throws {
        let result = DescriptorLoader.load(path: PackageRoot.path("Descriptors/\(descriptorFile)"))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let descriptor = try #require(result.descriptor)
        let generator = try Generator(templatesDirectory: PackageRoot.path("Templates"))
        let generated = try generator.render(descriptor, fileName: descriptorFile)
        let committed = try PackageRoot.read("Generated/\(Generator.outputFileName(forDescriptorFile: descriptorFile))")
        let diff = UnifiedDiff.make(old: committed, new: generated, oldName: "Generated", newName: "generator")
        #expect(
            diff.isEmpty,
            "Generated/ drifted; run `swift package --allow-writing-to-package-directory regenerate`:\n\(diff)")
    }

    @Test func providerIndexMatches() throws {
        let descriptors = try PackageRoot.descriptorFiles().map { file in
            try #require(DescriptorLoader.load(path: PackageRoot.path("Descriptors/\(file)")).descriptor)
        }
        let generator = try Generator(templatesDirectory: PackageRoot.path("Templates"))
        let committed = try PackageRoot.read("Generated/\(Generator.indexFileName)")
        let generated = try generator.renderIndex(descriptors)
        #expect(
            generated == committed, "\(UnifiedDiff.make(old: committed, new: generated, oldName: "a", newName: "b"))")
        #expect(generated.components(separatedBy: "Client.provider,").count - 1 == descriptors.count)
    }

    @Test func builtInTemplatesEqualTemplatesFolder() throws {
        for (name, text) in BuiltInTemplates.all {
            #expect(try PackageRoot.read("Templates/\(name)") == text, "run scripts/embed-templates.sh")
        }
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: PackageRoot.path("Templates"))
            .filter { $0.hasSuffix(".template") }
        #expect(Set(onDisk) == Set(BuiltInTemplates.all.keys))
    }

    @Test func outputIsDeterministicAndEndsWithOneNewline() throws {
        let generator = try Generator(templatesDirectory: PackageRoot.path("Templates"))
        for file in try PackageRoot.descriptorFiles() {
            let descriptor = try #require(
                DescriptorLoader.load(path: PackageRoot.path("Descriptors/\(file)")).descriptor)
            let first = try generator.render(descriptor, fileName: file)
            let second = try generator.render(descriptor, fileName: file)
            #expect(first == second)
            #expect(first.hasSuffix("}\n") && !first.hasSuffix("\n\n"))
            #expect(!first.contains("\r") && !first.contains("\t"))
            #expect(!first.contains(PackageRoot.url.path), "no absolute paths in generated code")
        }
    }
}
