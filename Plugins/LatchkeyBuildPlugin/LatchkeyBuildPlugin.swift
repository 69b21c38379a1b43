import Foundation
import PackagePlugin

/// Runs `latchkey-gen generate` once per descriptor, so the target compiles one client per descriptor.
///
/// Descriptors are the `.json` files (other than `*.schema.json`) of the target itself and of the
/// source targets it depends on directly. The plugin never reads a descriptor: it only names files,
/// so SwiftPM tracks every input. It writes only into its own work directory.
@main
struct LatchkeyBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let descriptors = DescriptorFiles.collect(from: module)
        let templates = DescriptorFiles.templates(in: context.package.directoryURL)
        return try commands(
            descriptors: descriptors, templates: templates, tool: context.tool(named: "latchkey-gen").url,
            workDirectory: context.pluginWorkDirectoryURL)
    }
}

extension LatchkeyBuildPlugin {
    func commands(descriptors: [URL], templates: [URL], tool: URL, workDirectory: URL) -> [Command] {
        let outputDirectory = workDirectory.appending(path: "Generated")
        let templateArguments = templates.isEmpty ? [] : ["--templates", templates[0].deletingLastPathComponent().path]
        let index: Command = .buildCommand(
            displayName: "Generating the Latchkey provider index",
            executable: tool,
            arguments: ["generate", "--index", "--output", outputDirectory.path] + templateArguments
                + descriptors.map(\.path),
            inputFiles: descriptors + templates,
            outputFiles: [outputDirectory.appending(path: "_index.swift")]
        )
        return [index]
            + descriptors.map { descriptor in
                let stem = descriptor.deletingPathExtension().lastPathComponent
                let output = outputDirectory.appending(path: "\(stem).swift")
                return .buildCommand(
                    displayName: "Generating Latchkey client from \(descriptor.lastPathComponent)",
                    executable: tool,
                    arguments: ["generate", "--output", outputDirectory.path] + templateArguments + [descriptor.path],
                    inputFiles: [descriptor] + templates,
                    outputFiles: [output]
                )
            }
    }
}

enum DescriptorFiles {
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

    /// The `*.template` files in `Templates/` at the package root, sorted; empty when there is none.
    static func templates(in packageDirectory: URL) -> [URL] {
        let directory = packageDirectory.appending(path: "Templates")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".template") }.sorted().map { directory.appending(path: $0) }
    }

    private static func jsonFiles(of module: SourceModuleTarget) -> [URL] {
        module.sourceFiles.map(\.url).filter {
            $0.pathExtension == "json" && !$0.lastPathComponent.hasSuffix(".schema.json")
        }
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension LatchkeyBuildPlugin: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            let descriptors = target.inputFiles.map(\.url).filter {
                $0.pathExtension == "json" && !$0.lastPathComponent.hasSuffix(".schema.json")
            }.sorted { $0.path < $1.path }
            let templates = DescriptorFiles.templates(in: context.xcodeProject.directoryURL)
            return try commands(
                descriptors: descriptors, templates: templates, tool: context.tool(named: "latchkey-gen").url,
                workDirectory: context.pluginWorkDirectoryURL)
        }
    }
#endif
