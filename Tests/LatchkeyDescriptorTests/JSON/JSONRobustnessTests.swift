import LatchkeyDescriptor
import Testing

@Suite("JSON robustness")
struct JSONRobustnessTests {
    static let sample = """
        {
          "name": "acme é🎉",
          "list": [1, -2.5e3, true, false, null, "\\u00e9\\ud83c\\udf89\\n"],
          "nested": {"a": {"b": []}, "c": {}}
        }
        """

    @Test("the sample parses")
    func sampleIsValid() {
        let result = JSONParser.parse(Self.sample)
        #expect(result.diagnostics.isEmpty)
        #expect(result.root?.object?.keys == ["name", "list", "nested"])
    }

    @Test("every truncation of a valid document is one error, at or before the end")
    func everyPrefix() {
        let bytes = Array(Self.sample.utf8)
        let lastNewline = bytes.lastIndex(of: 0x0A)!
        for length in 0..<(bytes.count - 1) {
            let prefix = Array(bytes[..<length])
            let result = JSONParser.parse(prefix)
            #expect(result.root == nil, "prefix of length \(length)")
            #expect(result.diagnostics.count == 1, "prefix of length \(length)")
            if let location = result.diagnostics.first?.location {
                #expect(location.line >= 1 && location.line <= 5)
                #expect(location.column >= 1)
            }
            // Cut inside a multi-byte character: reported as UTF-8; otherwise as end of file.
            if length > lastNewline, let message = result.diagnostics.first?.message {
                #expect(message.contains("end of file"))
            }
        }
    }

    @Test("removing any one byte never crashes and never goes unnoticed silently")
    func everyDeletion() {
        let bytes = Array(Self.sample.utf8)
        for index in bytes.indices {
            var mutated = bytes
            mutated.remove(at: index)
            let result = JSONParser.parse(mutated)
            // Deleting whitespace (or a digit of a number) may leave a valid document.
            if result.root == nil {
                #expect(result.diagnostics.count == 1)
            }
        }
    }

    @Test("random bytes never crash the parser")
    func randomBytes() {
        var generator = SplitMix64(seed: 0x5EED)
        let alphabet =
            Array("{}[]:,\"\\ \n\r\t0123456789-+.eEtrufalsn/*'xu".utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xA9, 0xE2, 0xFF]
        for _ in 0..<3_000 {
            let length = Int(generator.next() % 40)
            let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            let result = JSONParser.parse(bytes)
            #expect(result.root != nil || !result.diagnostics.isEmpty)
            for diagnostic in result.diagnostics {
                #expect(diagnostic.location.line >= 1 && diagnostic.location.column >= 1)
                #expect(diagnostic.location.column <= length + 1)
            }
        }
    }

    @Test("a 1 MB document parses")
    func largeDocument() throws {
        let item = "{\"id\": 12345, \"name\": \"client-name\", \"scopes\": [\"read\", \"write\"], \"ok\": true}"
        let count = 1_048_576 / item.utf8.count
        let text = "[" + Array(repeating: item, count: count).joined(separator: ",\n") + "]"
        let result = JSONParser.parse(text)
        #expect(result.diagnostics.isEmpty)
        let items = try #require(result.root?.array)
        #expect(items.count == count)
        #expect(items.last?.location == LatchkeyDescriptor.SourceLocation(line: count, column: 1))
        #expect(items.last?.object?["scopes"]?.array?[1].pointer.description == "/\(count - 1)/scopes/1")
    }

    @Test("a 1 MB string, a 1 MB number and a 1 MB word are handled")
    func hugeTokens() throws {
        let big = String(repeating: "x", count: 1_000_000)
        #expect(JSONParser.parse("\"\(big)\"").root?.string?.count == 1_000_000)
        let digits = "1" + String(repeating: "0", count: 1_000_000)
        #expect(JSONParser.parse(digits).root?.number?.lexeme.utf8.count == 1_000_001)
        let word = JSONParser.parse(big).diagnostics.first
        #expect(word?.message.hasPrefix("expected a JSON value, found 'xxxxxxxx") == true)
    }
}

/// A small deterministic random number generator, so failures reproduce.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
