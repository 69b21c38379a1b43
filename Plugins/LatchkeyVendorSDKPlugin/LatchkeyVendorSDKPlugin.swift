import Foundation
import PackagePlugin

/// Generates a vendor-SDK module: `latchkey-gen generate --vendor-sdk <target name>` over the target's own
/// descriptors and those of the targets it depends on (the `LatchkeyDescriptors` catalog), writing `<target name>.swift`, the surface of the one
/// descriptor whose `vendorSDK.module` is the target's name.
///
/// The target is named as the vendor's guide names its module (`BaseIdP`); it holds one hand-written file (SwiftPM
/// rejects a target with no sources) and depends on `LatchkeyRuntime` and `LatchkeyDescriptors`. Like the other
/// plugins, this one never reads a descriptor: it only names files, so SwiftPM tracks every input, and it writes
/// only into its own work directory.
@main
struct LatchkeyVendorSDKPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else {
            Diagnostics.warning("LatchkeyVendorSDKPlugin generates only into source targets; \(target.name) is not one")
            return []
        }
        // The target's own descriptors (an app's vendor SDK) and those of the targets it depends on (the catalog).
        var sources = [module]
        for dependency in module.dependencies {
            if case .target(let target) = dependency, let source = target as? SourceModuleTarget {
                sources.append(source)
            }
        }
        var descriptors = sources.flatMap { source in
            source.sourceFiles.map(\.url).filter { DescriptorFileRule.isDescriptor(fileName: $0.lastPathComponent) }
        }
        descriptors.sort { $0.path < $1.path }
        let templatesDirectory = context.package.directoryURL.appending(path: "Templates")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: templatesDirectory.path)) ?? []
        let templates = names.filter { $0.hasSuffix(".template") }.sorted().map {
            templatesDirectory.appending(path: $0)
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        return [
            .buildCommand(
                displayName: "Generating the \(target.name) vendor SDK",
                executable: try context.tool(named: "latchkey-gen").url,
                arguments: ["generate", "--vendor-sdk", target.name, "--output", output.path]
                    + (templates.isEmpty ? [] : ["--templates", templatesDirectory.path]) + descriptors.map(\.path),
                inputFiles: descriptors + templates,
                outputFiles: [output.appending(path: "\(target.name).swift")]
            )
        ]
    }
}
