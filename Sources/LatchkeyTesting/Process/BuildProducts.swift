import Foundation

/// Finds the package's build products (`latchkey-gen`, `latchkey-demo`, `latchkey-store-crasher`, the
/// `Modules` folder) from inside a running test process, on Linux and on macOS.
///
/// SwiftPM puts the products in one build folder (`.build/debug`) beside the test bundle
/// `<Package>PackageTests.xctest`. What the test process sees of that bundle differs:
/// - Linux: the bundle is the test executable itself, `CommandLine.arguments[0]`.
/// - macOS: the executable is `….xctest/Contents/MacOS/<name>` inside the bundle, or the process is a runner
///   (Xcode's `xctest`, SwiftPM's `swiftpm-testing-helper`) outside the build folder that gets the bundle's
///   path as an argument, and `Bundle.allBundles` lists the loaded bundle.
///
/// So the build folder is the parent of any `.xctest` path component in the arguments or the loaded bundles,
/// in that order; the executable's own folder and its parent come last (a product run directly).
public enum BuildProducts {
    /// The folders that may hold the build products, most likely first, without duplicates.
    /// - Parameters:
    ///   - arguments: The process's arguments (`CommandLine.arguments`).
    ///   - bundlePaths: The paths of the loaded bundles (`Bundle.allBundles`).
    ///   - currentDirectory: What a relative path is relative to.
    /// - Returns: Absolute folder paths.
    public static func candidateDirectories(
        arguments: [String], bundlePaths: [String], currentDirectory: String
    ) -> [String] {
        let absolute = { (path: String) in
            path.hasPrefix("/") ? path : (currentDirectory as NSString).appendingPathComponent(path)
        }
        var directories: [String] = []
        for path in (arguments + bundlePaths).map(absolute) {
            if let folder = folderHoldingTestBundle(path) { directories.append(folder) }
        }
        if let executable = arguments.first.map(absolute) {
            let folder = parent(executable)
            directories += [folder, parent(folder)]
        }
        var seen: Set<String> = []
        return directories.filter { seen.insert($0).inserted }
    }

    /// The folder that holds the `.xctest` bundle a path lies in (or is), if it names one.
    /// - Parameter path: An absolute path.
    /// - Returns: The folder's absolute path, or `nil` when no component of `path` ends in `.xctest`.
    public static func folderHoldingTestBundle(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard let index = components.firstIndex(where: { $0.hasSuffix(".xctest") }) else { return nil }
        return "/" + components[..<index].joined(separator: "/")
    }

    /// The executable product `name` built beside the running tests, if there is one.
    /// - Parameter name: The product's name (`latchkey-gen`).
    public static func executable(_ name: String) -> URL? {
        directories.lazy.map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The folder that holds `file` (a `.swiftmodule`) among the build folders and their `Modules` folders.
    /// - Parameter file: The file's name.
    public static func folder(containing file: String) -> URL? {
        directories.lazy.flatMap { directory in
            [URL(fileURLWithPath: directory).appendingPathComponent("Modules"), URL(fileURLWithPath: directory)]
        }
        .first { FileManager.default.fileExists(atPath: $0.appendingPathComponent(file).path) }
    }

    /// ``candidateDirectories(arguments:bundlePaths:currentDirectory:)`` of this process.
    public static var directories: [String] {
        candidateDirectories(
            arguments: CommandLine.arguments,
            bundlePaths: Bundle.allBundles.map(\.bundlePath).filter { $0.hasSuffix(".xctest") },
            currentDirectory: FileManager.default.currentDirectoryPath)
    }

    private static func parent(_ path: String) -> String {
        (path as NSString).deletingLastPathComponent
    }
}
