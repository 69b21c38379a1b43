import LatchkeyDescriptor
import Testing

/// An input's `values`: decoded as written, and every mistake a located error.
@Suite struct InputValuesValidationTests {
    static func load(_ inputs: String, formatVersion: Int = 2) -> (descriptor: Descriptor?, errors: [Diagnostic]) {
        let text = """
            {
              "formatVersion": \(formatVersion),
              "name": "acme",
              "displayName": "Acme",
              "inputs": \(inputs)
            }
            """
        let result = DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json")
        return (result.descriptor, result.diagnostics.filter { $0.severity == .error })
    }

    @Test("values are decoded in order; the default is one of them")
    func decodes() throws {
        let loaded = Self.load(#"{"region": {"values": ["us", "eu-west-1"], "default": "us"}}"#)
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        #expect(loaded.descriptor?.inputs.first?.values == ["us", "eu-west-1"])
    }

    @Test(
        "mistakes are located errors",
        arguments: [
            (#"{"region": {"values": []}}"#, "must be an array of 1 to 64 strings"),
            (#"{"region": {"values": "us"}}"#, "must be an array of 1 to 64 strings"),
            (#"{"region": {"type": "url", "values": ["https://a.example"]}}"#, "needs a string input"),
            (#"{"region": {"values": ["us", "us"]}}"#, "is listed twice"),
            (#"{"region": {"values": ["eu-west", "eu_west"]}}"#, "give the same Swift case euWest"),
            (#"{"region": {"values": [""]}}"#, "a value must be 1 to 200 bytes"),
            (#"{"region": {"values": ["us"], "default": "eu"}}"#, "the default \"eu\" is not one of \"values\""),
            (#"{"signOutScope": {"values": ["a"]}}"#, "would generate an enum named SignOutScope"),
        ])
    func mistakes(inputs: String, message: String) {
        let loaded = Self.load(inputs)
        #expect(loaded.errors.contains { $0.message.contains(message) }, "\(loaded.errors)")
    }

    @Test("values needs formatVersion 2")
    func needsVersion2() {
        let loaded = Self.load(#"{"region": {"values": ["us"]}}"#, formatVersion: 1)
        #expect(
            loaded.errors.contains { $0.message.contains("input \"values\" needs formatVersion 2") }, "\(loaded.errors)"
        )
    }
}
