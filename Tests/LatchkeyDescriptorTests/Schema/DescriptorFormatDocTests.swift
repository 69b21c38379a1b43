import Foundation
import Testing

/// Keeps `docs/DescriptorFormat.md` in step with `Descriptors/descriptor.schema.json`: every key the schema
/// defines is documented, and every key the doc's tables document exists (see ``DescriptorFormatDocChecker``).
@Suite struct DescriptorFormatDocTests {
    /// The package root: this file is `<root>/Tests/LatchkeyDescriptorTests/Schema/DescriptorFormatDocTests.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Schema
        .deletingLastPathComponent()  // LatchkeyDescriptorTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root

    static func loadSchema() throws -> Any {
        let url = packageRoot.appendingPathComponent(DescriptorFormatDocChecker.schemaPath)
        return try JSONSerialization.jsonObject(with: try Data(contentsOf: url))
    }

    static func loadDoc() throws -> String {
        let url = packageRoot.appendingPathComponent(DescriptorFormatDocChecker.docPath)
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test func docAndSchemaNameTheSameKeys() throws {
        let schema = try Self.loadSchema()
        let doc = try Self.loadDoc()
        // A checker that finds (almost) nothing would pass vacuously.
        let schemaKeys = DescriptorFormatDocChecker.schemaKeys(in: schema)
        let documented = DescriptorFormatDocChecker.documentedKeys(in: doc)
        #expect(schemaKeys.count > 100, "found too few schema keys: \(schemaKeys.keys.sorted())")
        #expect(documented.count > 100, "found too few documented keys: \(documented.map(\.key))")
        for gap in DescriptorFormatDocChecker.gaps(schema: schema, markdown: doc) {
            Issue.record(Comment(rawValue: gap.description))
        }
    }

    @Test func reportsASchemaKeyMissingFromTheDoc() throws {
        let doc = try Self.loadDoc()
        let doctored = doc.replacingOccurrences(of: "`trimTrailingSlash`", with: "trim trailing slash")
        #expect(doctored != doc)
        let gaps = DescriptorFormatDocChecker.gaps(schema: try Self.loadSchema(), markdown: doctored)
        let expected = DescriptorFormatDocChecker.Gap.undocumented(
            key: "trimTrailingSlash", schemaPaths: ["#/$defs/input/properties/trimTrailingSlash"])
        #expect(gaps == [expected])
        #expect(expected.description.contains("#/$defs/input/properties/trimTrailingSlash"))
    }

    @Test func reportsADocumentedKeyTheSchemaLacksWithItsLine() throws {
        var lines = try Self.loadDoc().components(separatedBy: "\n")
        let environmentRow = try #require(lines.firstIndex { $0.hasPrefix("| `environment` |") })
        lines.insert("| `enviroment` | string | — | a misspelt key |", at: environmentRow + 1)
        let identifierLabelRow = try #require(lines.firstIndex { $0.hasPrefix("| `password` |") })
        lines[identifierLabelRow] = lines[identifierLabelRow]
            .replacingOccurrences(of: "`identifierLabel` (", with: "`identifierLabel`, `identifierLabl` (")
        let gaps = DescriptorFormatDocChecker.gaps(
            schema: try Self.loadSchema(), markdown: lines.joined(separator: "\n"))
        #expect(
            gaps == [
                .unknownToSchema(key: "enviroment", line: environmentRow + 2, section: "inputs.NAME"),
                .unknownToSchema(key: "identifierLabl", line: identifierLabelRow + 1, section: "flows"),
            ])
        #expect(gaps.first?.description.contains("DescriptorFormat.md:\(environmentRow + 2)") == true)
    }

    @Test func walksEverySubschemaKeyword() {
        let leaf: [String: Any] = ["type": "string"]
        let schema: [String: Any] = [
            "properties": ["top": ["items": ["properties": ["inItems": leaf]]]],
            "$defs": ["d": ["additionalProperties": ["properties": ["inAdditional": leaf]]]],
            "definitions": ["e": ["oneOf": [["properties": ["inOneOf": leaf]]]]],
            "anyOf": [["properties": ["in/AnyOf": leaf]]],
            "allOf": [["not": ["properties": ["inNot": leaf]]]],
            "patternProperties": ["^x$": ["properties": ["inPattern": leaf]]],
            "additionalProperties": false,
            "examples": [["properties": ["notAKey": leaf]]],
            "default": ["properties": ["notAKeyEither": leaf]],
        ]
        #expect(
            DescriptorFormatDocChecker.schemaKeys(in: schema) == [
                "top": ["#/properties/top"],
                "inItems": ["#/properties/top/items/properties/inItems"],
                "inAdditional": ["#/$defs/d/additionalProperties/properties/inAdditional"],
                "inOneOf": ["#/definitions/e/oneOf/0/properties/inOneOf"],
                "in/AnyOf": ["#/anyOf/0/properties/in~1AnyOf"],
                "inNot": ["#/allOf/0/not/properties/inNot"],
                "inPattern": ["#/patternProperties/^x$/properties/inPattern"],
            ])
    }

    @Test func readsKeyTablesOnly() {
        let markdown = """
            ## `flows`

            | flow | keys |
            | --- | --- |
            | `password` | `request` (response `session`, uses `{username}`), `identifierLabel` (default `email`) |

            | type | what it is |
            | --- | --- |
            | `NotAKey` | a table without a key column |

            ```
            | key | meaning |
            | --- | --- |
            | `inAFence` | ignored |
            ```
            """
        #expect(
            DescriptorFormatDocChecker.documentedKeys(in: markdown) == [
                .init(key: "password", line: 5, section: "flows"),
                .init(key: "request", line: 5, section: "flows"),
                .init(key: "identifierLabel", line: 5, section: "flows"),
            ])
    }
}
