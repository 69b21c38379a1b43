import Foundation

/// Paths inside the package, found from this file's location.
enum PackageRoot {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

    static func read(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }

    static func descriptorFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path("Descriptors"))
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }.sorted()
    }
}
