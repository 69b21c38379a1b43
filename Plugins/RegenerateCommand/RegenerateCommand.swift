import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory regenerate`: rewrites `Generated/` from
/// `Descriptors/` and `Templates/`, and removes the files of deleted descriptors.
@main
struct RegenerateCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "latchkey-gen").url
        let root = context.package.directoryURL
        let process = Process()
        process.executableURL = tool
        process.currentDirectoryURL = root
        process.arguments =
            [
                "generate", "--prune",
                "--descriptors", root.appending(path: "Descriptors").path,
                "--templates", root.appending(path: "Templates").path,
                "--output", root.appending(path: "Generated").path,
            ] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Diagnostics.error("latchkey-gen generate failed with exit code \(process.terminationStatus)")
            throw RegenerateFailure(status: process.terminationStatus)
        }
    }
}

struct RegenerateFailure: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "latchkey-gen exited with status \(status)" }
}
