import Foundation
import LatchkeyDescriptor
import Testing

/// Keeps `Descriptors/descriptor.schema.json` in step with the decoder: every key the decoder reads
/// is a property in the schema, and every property in the schema is a key the decoder reads.
@Suite struct SchemaConsistencyTests {
    /// The package root: this file is `<root>/Tests/LatchkeyDescriptorTests/Schema/SchemaConsistencyTests.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Schema
        .deletingLastPathComponent()  // LatchkeyDescriptorTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root

    static let schemaURL = packageRoot.appendingPathComponent("Descriptors/descriptor.schema.json")
    static let decodingDirectory = packageRoot.appendingPathComponent("Sources/LatchkeyDescriptor/Decoding")

    /// The `ObjectReader` accessors (plus the local `field` helper used for session and user pointers)
    /// whose first string-literal argument is a descriptor key.
    static let keyPattern =
        #"\b(?:member|required|string|bool|int|strings|oneOf|members|requestName|field)\("([^"\\]*)""#

    /// String-literal first arguments of those calls that are not descriptor keys. Empty today; add an
    /// entry (with the reason) only if a message or value ever matches the pattern above.
    static let nonKeyArguments: Set<String> = []

    static func loadSchema() throws -> [String: Any] {
        let data = try Data(contentsOf: schemaURL)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Every key of every `properties` object, anywhere in the schema (including `$defs` and `oneOf` branches).
    static func propertyKeys(in node: Any) -> Set<String> {
        var keys: Set<String> = []
        if let object = node as? [String: Any] {
            if let properties = object["properties"] as? [String: Any] { keys.formUnion(properties.keys) }
            for value in object.values { keys.formUnion(propertyKeys(in: value)) }
        } else if let array = node as? [Any] {
            for value in array { keys.formUnion(propertyKeys(in: value)) }
        }
        return keys
    }

    /// Every property schema in the schema, with a path for messages.
    static func propertySchemas(in node: Any, path: String = "#") -> [(path: String, schema: Any)] {
        var found: [(path: String, schema: Any)] = []
        if let object = node as? [String: Any] {
            if let properties = object["properties"] as? [String: Any] {
                for (key, schema) in properties { found.append(("\(path)/properties/\(key)", schema)) }
            }
            for (key, value) in object { found += propertySchemas(in: value, path: "\(path)/\(key)") }
        } else if let array = node as? [Any] {
            for (index, value) in array.enumerated() { found += propertySchemas(in: value, path: "\(path)/\(index)") }
        }
        return found
    }

    static func decoderKeys() throws -> Set<String> {
        let files = try FileManager.default.contentsOfDirectory(atPath: decodingDirectory.path)
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty, "no decoder sources found in \(decodingDirectory.path)")
        let regex = try NSRegularExpression(pattern: keyPattern)
        var keys: Set<String> = []
        for file in files {
            let text = try String(contentsOf: decodingDirectory.appendingPathComponent(file), encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            for match in regex.matches(in: text, range: range) {
                guard let keyRange = Range(match.range(at: 1), in: text) else { continue }
                keys.insert(String(text[keyRange]))
            }
        }
        return keys.subtracting(nonKeyArguments)
    }

    @Test func schemaParsesAndIsDraft202012() throws {
        let schema = try Self.loadSchema()
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["$id"] as? String == "https://latchkey.dev/schemas/descriptor-v1.json")
        #expect(Set(schema["required"] as? [String] ?? []) == ["formatVersion", "name", "displayName"])
    }

    @Test func schemaPropertiesMatchDecoderKeys() throws {
        let schemaKeys = Self.propertyKeys(in: try Self.loadSchema())
        let decoderKeys = try Self.decoderKeys()
        #expect(decoderKeys.count > 50, "the key pattern found too few keys: \(decoderKeys.sorted())")
        let missingFromSchema = decoderKeys.subtracting(schemaKeys).sorted()
        let unknownToDecoder = schemaKeys.subtracting(decoderKeys).sorted()
        #expect(missingFromSchema.isEmpty, "keys the decoder reads but the schema lacks: \(missingFromSchema)")
        #expect(unknownToDecoder.isEmpty, "schema properties the decoder does not read: \(unknownToDecoder)")
    }

    @Test func everyPropertyHasADescription() throws {
        let undocumented = Self.propertySchemas(in: try Self.loadSchema())
            .filter { (($0.schema as? [String: Any])?["description"] as? String)?.isEmpty ?? true }
            .map(\.path)
            .sorted()
        #expect(undocumented.isEmpty, "properties without a description: \(undocumented)")
    }
}
