import Foundation
import PackagePlugin

/// Runs `latchkey-gen generate` once per descriptor, so the target compiles one client per descriptor.
///
/// Descriptors are the `.json` files (other than `*.schema.json` and the selection file) of the target itself
/// and of the source targets it depends on directly. An app's target may also hold `latchkey-providers.json`,
/// naming the catalog providers it uses: their clients are generated into the app from the Latchkey package's
/// `Descriptors/`, and no other catalog client is compiled (see ``SelectionCommand``). The plugin never reads a
/// descriptor nor the selection: it only names files, so SwiftPM tracks every input. It writes only into its
/// own work directory.
@main
struct LatchkeyBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else {
            Diagnostics.warning(
                "LatchkeyBuildPlugin generates clients only into source targets; \(target.name) is not one")
            return []
        }
        let descriptors = DescriptorFiles.collect(from: module)
        let templates = DescriptorFiles.templates(in: context.package.directoryURL)
        let tool = try context.tool(named: "latchkey-gen").url
        let workDirectory = context.pluginWorkDirectoryURL
        guard let selection = DescriptorFiles.selection(of: module) else {
            return commands(descriptors: descriptors, templates: templates, tool: tool, workDirectory: workDirectory)
        }
        guard let catalog = CatalogLocator.catalog(from: context.package) else {
            throw SelectionError.noCatalog(selection: selection.path)
        }
        return [
            SelectionCommand(selection: selection, catalog: catalog, ownDescriptors: descriptors).command(
                templates: templates, tool: tool, workDirectory: workDirectory)
        ] + clientCommands(descriptors: descriptors, templates: templates, tool: tool, workDirectory: workDirectory)
    }
}

extension LatchkeyBuildPlugin {
    func commands(descriptors: [URL], templates: [URL], tool: URL, workDirectory: URL) -> [Command] {
        let outputDirectory = workDirectory.appending(path: "Generated")
        let index: Command = .buildCommand(
            displayName: "Generating the Latchkey provider index",
            executable: tool,
            arguments: ["generate", "--index", "--output", outputDirectory.path] + Self.arguments(templates: templates)
                + descriptors.map(\.path),
            inputFiles: descriptors + templates,
            outputFiles: [outputDirectory.appending(path: "_index.swift")]
        )
        return [index]
            + clientCommands(descriptors: descriptors, templates: templates, tool: tool, workDirectory: workDirectory)
    }

    /// One command per descriptor, which SwiftPM re-runs only when that descriptor or a template changes.
    func clientCommands(descriptors: [URL], templates: [URL], tool: URL, workDirectory: URL) -> [Command] {
        let outputDirectory = workDirectory.appending(path: "Generated")
        return descriptors.map { descriptor in
            let stem = descriptor.deletingPathExtension().lastPathComponent
            let output = outputDirectory.appending(path: "\(stem).swift")
            return .buildCommand(
                displayName: "Generating Latchkey client from \(descriptor.lastPathComponent)",
                executable: tool,
                arguments: ["generate", "--output", outputDirectory.path] + Self.arguments(templates: templates)
                    + [descriptor.path],
                inputFiles: [descriptor] + templates,
                outputFiles: [output]
            )
        }
    }

    /// `--templates DIR` when the package has templates of its own; nothing for the built-in ones.
    static func arguments(templates: [URL]) -> [String] {
        templates.isEmpty ? [] : ["--templates", templates[0].deletingLastPathComponent().path]
    }
}

enum DescriptorFiles {
    /// The name of an app target's selection of catalog providers.
    static var selectionFileName: String { DescriptorFileRule.selectionFileName }

    /// The descriptor files of a target and of the source targets it depends on, sorted by path.
    static func collect(from module: SourceModuleTarget) -> [URL] {
        var files = jsonFiles(of: module)
        for dependency in module.dependencies {
            if case .target(let target) = dependency, let source = target as? SourceModuleTarget {
                files += jsonFiles(of: source)
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The target's `latchkey-providers.json`, when it has one.
    static func selection(of module: SourceModuleTarget) -> URL? {
        module.sourceFiles.map(\.url).first { $0.lastPathComponent == selectionFileName }
    }

    /// The `*.template` files in `Templates/` at the package root, sorted; empty when there is none.
    static func templates(in packageDirectory: URL) -> [URL] {
        let directory = packageDirectory.appending(path: "Templates")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".template") }.sorted().map { directory.appending(path: $0) }
    }

    /// Whether a file is a descriptor (``DescriptorFileRule``, shared with the targets).
    static func isDescriptor(_ url: URL) -> Bool {
        DescriptorFileRule.isDescriptor(fileName: url.lastPathComponent)
    }

    private static func jsonFiles(of module: SourceModuleTarget) -> [URL] {
        module.sourceFiles.map(\.url).filter(isDescriptor)
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension LatchkeyBuildPlugin: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            let inputs = target.inputFiles.map(\.url)
            if let selection = inputs.first(where: { $0.lastPathComponent == DescriptorFiles.selectionFileName }) {
                throw SelectionError.notInXcodeProjects(selection: selection.path)
            }
            let descriptors = inputs.filter(DescriptorFiles.isDescriptor).sorted { $0.path < $1.path }
            let templates = DescriptorFiles.templates(in: context.xcodeProject.directoryURL)
            return try commands(
                descriptors: descriptors, templates: templates, tool: context.tool(named: "latchkey-gen").url,
                workDirectory: context.pluginWorkDirectoryURL)
        }
    }
#endif
