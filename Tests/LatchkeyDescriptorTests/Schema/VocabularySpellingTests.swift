import Foundation
import LatchkeyVocabulary
import Testing

/// The schema and the format reference spell the vocabulary's words exactly as its enums do: a case added
/// to the vocabulary without the schema (or the schema offering a value the decoder refuses) fails here.
@Suite struct VocabularySpellingTests {
    /// The descriptor keys each vocabulary enum's spellings are the values of.
    static let keys: [(key: String, spellings: [String])] = [
        ("encoding", BodyEncoding.descriptorSpellings),
        ("clientAuthentication", ClientAuthenticationMethod.descriptorSpellings),
        ("authorization", RequestAuthorization.descriptorSpellings),
        ("response", ResponseMeaning.descriptorSpellings),
        ("accessToken", TokenFormat.descriptorSpellings),
        ("issuerValidation", IssuerValidation.descriptorSpellings),
        ("location", CallbackLocation.descriptorSpellings),
        ("redirectKinds", RedirectKind.descriptorSpellings),
        ("type", InputKind.descriptorSpellings),
        ("type", ParameterType.descriptorSpellings),
        ("method", PKCEMethod.descriptorSpellings),
        ("kind", ErrorKind.descriptorSpellings),
        ("dpop", DPoPUse.descriptorSpellings),
        ("use", PushedAuthorizationUse.descriptorSpellings),
    ]

    /// Every string `enum` in the schema by the property key it constrains (an array's `items.enum` counts
    /// for the array's key).
    static func schemaEnums(in node: Any, key: String? = nil) -> [(key: String, values: [String])] {
        var found: [(key: String, values: [String])] = []
        if let object = node as? [String: Any] {
            if let key, let values = object["enum"] as? [String] { found.append((key, values)) }
            if let key, let items = object["items"] { found += schemaEnums(in: items, key: key) }
            if let properties = object["properties"] as? [String: Any] {
                for (name, schema) in properties { found += schemaEnums(in: schema, key: name) }
            }
            for (name, value) in object where name != "properties" && name != "items" {
                found += schemaEnums(in: value, key: name == "oneOf" || name == "anyOf" ? key : nil)
            }
        } else if let array = node as? [Any] {
            for value in array { found += schemaEnums(in: value, key: key) }
        }
        return found
    }

    @Test func everyVocabularyEnumIsASchemaEnum() throws {
        let enums = Self.schemaEnums(in: try SchemaConsistencyTests.loadSchema())
        for (key, spellings) in Self.keys {
            let candidates = enums.filter { $0.key == key }.map { Set($0.values) }
            #expect(
                candidates.contains(Set(spellings)),
                "the schema has no \"\(key)\" enum equal to \(spellings); found \(candidates)")
        }
        let unambiguous = Set(Self.keys.map(\.key)).subtracting(["type", "method"])
        for found in enums where unambiguous.contains(found.key) {
            let expected = Self.keys.first { $0.key == found.key }?.spellings ?? []
            #expect(Set(found.values) == Set(expected), "schema \"\(found.key)\" offers \(found.values)")
        }
    }

    @Test func flowsAreTheSchemaFlows() throws {
        let schema = try SchemaConsistencyTests.loadSchema()
        let properties = try #require(
            ((schema["properties"] as? [String: Any])?["flows"] as? [String: Any])?["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(Flow.descriptorSpellings))
    }

    @Test func formatReferenceNamesEverySpelling() throws {
        let reference = try String(
            contentsOf: SchemaConsistencyTests.packageRoot.appendingPathComponent("docs/DescriptorFormat.md"),
            encoding: .utf8)
        for spelling in Self.keys.flatMap(\.spellings) + Flow.descriptorSpellings {
            #expect(
                reference.contains("`\(spelling)`") || reference.contains("\"\(spelling)\""),
                "docs/DescriptorFormat.md does not name \(spelling)")
        }
    }
}
