import Foundation
import PackagePlugin

/// The one command that generates an app's selected catalog providers (`latchkey-providers.json`).
///
/// Its outputs are the same whatever the selection (`_selected.swift` with every selected client, and
/// `_index.swift`), and its inputs are the selection file and every catalog descriptor, so SwiftPM re-runs it
/// when the selection or a catalog descriptor changes, without re-planning the build: the plugin never reads
/// the selection, `latchkey-gen` does, and reports an unknown provider at its line and column.
struct SelectionCommand {
    let selection: URL
    let catalog: Catalog
    let ownDescriptors: [URL]

    func command(templates: [URL], tool: URL, workDirectory: URL) -> Command {
        let outputDirectory = workDirectory.appending(path: "Generated")
        return .buildCommand(
            displayName: "Generating the Latchkey providers selected in \(selection.lastPathComponent)",
            executable: tool,
            arguments: [
                "generate", "--select", selection.path, "--catalog", catalog.directory.path,
                "--output", outputDirectory.path,
            ] + LatchkeyBuildPlugin.arguments(templates: templates) + ownDescriptors.map(\.path),
            inputFiles: [selection] + catalog.descriptors + ownDescriptors + templates,
            outputFiles: [
                outputDirectory.appending(path: "_index.swift"), outputDirectory.appending(path: "_selected.swift"),
            ]
        )
    }
}

/// The Latchkey catalog: the folder and descriptor files of the `LatchkeyDescriptors` target.
struct Catalog {
    let directory: URL
    let descriptors: [URL]
}

/// Finds the catalog in the package graph: the `LatchkeyDescriptors` target of the Latchkey package.
enum CatalogLocator {
    static let targetName = "LatchkeyDescriptors"

    /// The catalog of the package or of a package it depends on (breadth first), or nil when none has it.
    static func catalog(from root: Package) -> Catalog? {
        var queue = [root]
        var seen: Set<String> = []
        while !queue.isEmpty {
            let package = queue.removeFirst()
            guard seen.insert(package.id).inserted else { continue }
            if let target = package.targets.first(where: { $0.name == targetName }) as? SourceModuleTarget {
                let descriptors = target.sourceFiles.map(\.url).filter(DescriptorFiles.isDescriptor)
                return Catalog(directory: target.directoryURL, descriptors: descriptors.sorted { $0.path < $1.path })
            }
            queue += package.dependencies.map(\.package)
        }
        return nil
    }
}

/// Why the plugin cannot generate a selection: shown by the build as an error.
enum SelectionError: Error, CustomStringConvertible {
    case noCatalog(selection: String)
    case notInXcodeProjects(selection: String)

    var description: String {
        switch self {
        case .noCatalog(let selection):
            "\(selection): the package graph has no Latchkey catalog (the LatchkeyDescriptors target); "
                + "add the Latchkey package as a dependency to select its providers"
        case .notInXcodeProjects(let selection):
            "\(selection): selecting catalog providers needs a Swift package target; in an Xcode project, "
                + "copy the descriptors you use from Latchkey's Descriptors/ into the target instead"
        }
    }
}
