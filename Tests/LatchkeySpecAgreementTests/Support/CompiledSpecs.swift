import Foundation
@_spi(Generated) import Latchkey
import LatchkeyDescriptor
@_spi(Generated) import LatchkeyGeneratorFixtures
@_spi(Generated) import LatchkeyRuntime

/// The descriptors whose clients this test target links, each beside the spec its compiled client holds.
enum CompiledSpecs {
    /// A folder of descriptors and the specs compiled from it.
    struct Source: Sendable {
        /// The folder, relative to the package root.
        let folder: String
        /// The compiled specs, from the module's generated provider index.
        let specs: [ProviderSpec]
    }

    /// The catalog (`Descriptors/`, compiled into `Latchkey`).
    static let catalog = Source(folder: "Descriptors", specs: Latchkey.LatchkeyProviders.all)
    /// The coverage fixtures (`Tests/LatchkeyGeneratorFixtures/`, compiled into `LatchkeyGeneratorFixtures`).
    static let fixtures = Source(folder: "Tests/LatchkeyGeneratorFixtures", specs: generatorFixtureSpecs)

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The descriptor files of a source, by name, sorted.
    static func descriptorFiles(_ source: Source) -> [String] {
        let folder = packageRoot.appendingPathComponent(source.folder).path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { DescriptorFileRule.isDescriptor(fileName: $0) }.sorted()
    }

    /// The descriptor a file holds.
    static func load(_ file: String, in source: Source) -> DescriptorLoader.Result {
        DescriptorLoader.load(path: packageRoot.appendingPathComponent(source.folder).appendingPathComponent(file).path)
    }
}
