import Foundation
import LatchkeyDescriptor
import LatchkeyGenerator
import Testing

/// Snippet tests: a descriptor fragment in, the generated fragment it must produce out.
///
/// The fragment is added to a minimal descriptor, which is validated (no diagnostic allowed) and generated
/// with the templates in `Templates/`. The expected text must appear in the output as a run of whole lines;
/// leading indentation is ignored on both sides, so a snippet reads the same wherever the printer nests it.
/// Beside, not instead of, the whole-file goldens in `GoldenTests`.
enum Snippet {
    /// A descriptor named `snippet` with the fragment's members.
    /// - Parameters:
    ///   - fragment: JSON members (without the enclosing braces), or the empty string.
    ///   - formatVersion: The descriptor format version.
    static func descriptorText(_ fragment: String, formatVersion: Int = 1) -> String {
        """
        {
          "formatVersion": \(formatVersion),
          "name": "snippet",
          "displayName": "Snippet"\(fragment.isEmpty ? "" : ",\n  " + fragment)
        }
        """
    }

    /// Generates the client for a fragment; a diagnostic fails the test.
    static func generate(
        _ fragment: String, formatVersion: Int = 1, sourceLocation: Testing.SourceLocation = #_sourceLocation
    )
        throws -> String
    {
        let text = descriptorText(fragment, formatVersion: formatVersion)
        let result = DescriptorLoader.load(bytes: Array(text.utf8), fileName: "snippet.json")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)", sourceLocation: sourceLocation)
        let descriptor = try #require(result.descriptor, sourceLocation: sourceLocation)
        let generator = try Generator(templatesDirectory: PackageRoot.path("Templates"))
        return try generator.render(descriptor, fileName: "snippet.json")
    }

    /// The lines of a text with their leading spaces removed, blank lines dropped.
    static func unindentedLines(_ text: String) -> [Substring] {
        text.split(separator: "\n").map { $0.drop { $0 == " " } }.filter { !$0.isEmpty }
    }

    /// Whether `expected`'s lines occur consecutively in `generated` (indentation ignored).
    static func contains(_ generated: String, _ expected: String) -> Bool {
        let haystack = unindentedLines(generated)
        let needle = unindentedLines(expected)
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    /// Expects the fragment to generate `expected` (see ``contains(_:_:)``).
    static func expect(
        _ fragment: String, formatVersion: Int = 1, generates expected: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let generated = try generate(fragment, formatVersion: formatVersion, sourceLocation: sourceLocation)
        #expect(
            contains(generated, expected), "expected:\n\(expected)\n--- in generated:\n\(generated)",
            sourceLocation: sourceLocation)
    }
}
