import LatchkeyDescriptor
import Testing

@Suite("JSON nesting depth")
struct JSONDepthTests {
    @Test("500,000 '[' fail fast with a depth error, not a crash", arguments: ["[", "{\"a\":", "[{\"k\":"])
    func absurdNesting(opener: String) throws {
        let text = String(repeating: opener, count: 500_000)
        let result = JSONParser.parse(text)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(result.root == nil)
        #expect(diagnostic.message == "nesting deeper than 256 levels")
        // It stops at the first opener past the limit (no wall-clock bound: machines vary).
        #expect(result.diagnostics.count == 1)
        #expect(diagnostic.location.line == 1)
        #expect(diagnostic.location.column == Self.columnOfOpener(257, in: text))
    }

    /// The column of the `n`th `[` or `{` of a single-line text.
    private static func columnOfOpener(_ n: Int, in text: String) -> Int {
        var seen = 0
        for (offset, byte) in text.utf8.enumerated() where byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
            seen += 1
            if seen == n { return offset + 1 }
        }
        return 0
    }

    @Test("exactly 256 levels parse; 257 do not")
    func limit() throws {
        let ok = JSONParser.parse(String(repeating: "[", count: 256) + String(repeating: "]", count: 256))
        #expect(ok.diagnostics.isEmpty)
        #expect(ok.root != nil)

        let tooDeep = JSONParser.parse(String(repeating: "[", count: 257) + String(repeating: "]", count: 257))
        #expect(tooDeep.root == nil)
        let diagnostic = try #require(tooDeep.diagnostics.first)
        #expect(diagnostic.message == "nesting deeper than 256 levels")
        #expect(diagnostic.location == LatchkeyDescriptor.SourceLocation(line: 1, column: 257))
        #expect(diagnostic.pointer == "/" + Array(repeating: "0", count: 256).joined(separator: "/"))
        #expect(JSONParser.maximumDepth == 256)
    }

    @Test("scalars don't count as a level")
    func scalarsAtTheLimit() {
        let text = String(repeating: "[", count: 256) + "1, \"s\", {}" + String(repeating: "]", count: 256)
        let tooDeep = JSONParser.parse(text)
        #expect(tooDeep.diagnostics.map(\.message) == ["nesting deeper than 256 levels"])
        #expect(tooDeep.diagnostics.first?.location == LatchkeyDescriptor.SourceLocation(line: 1, column: 265))
        let text2 = String(repeating: "[", count: 256) + "1, \"s\", null" + String(repeating: "]", count: 256)
        #expect(JSONParser.parse(text2).diagnostics.isEmpty)
    }

    @Test("a deep but legal 200-level document parses with exact pointers")
    func deepLegal() throws {
        let text = String(repeating: "{\"a\": [", count: 100) + "true" + String(repeating: "]}", count: 100)
        let result = JSONParser.parse(text)
        #expect(result.diagnostics.isEmpty)
        var node = try #require(result.root)
        var depth = 0
        while let inner = node.object?["a"]?.array?.first {
            node = inner
            depth += 1
        }
        #expect(depth == 100)
        #expect(node.bool == true)
        #expect(node.pointer.count == 200)
        #expect(node.pointer.description == String(repeating: "/a/0", count: 100))
        #expect(node.location == LatchkeyDescriptor.SourceLocation(line: 1, column: 701))
    }

    @Test("a wide document at the depth limit stays linear")
    func wideAndDeep() throws {
        let leaves = Array(repeating: "1", count: 20_000).joined(separator: ",")
        let text = String(repeating: "[", count: 256) + leaves + String(repeating: "]", count: 256)
        let result = JSONParser.parse(text)
        #expect(result.diagnostics.isEmpty)
        var node = try #require(result.root)
        for _ in 1..<256 { node = try #require(node.array?.first) }
        let last = try #require(node.array?.last)
        #expect(last.pointer.count == 256)
        #expect(last.pointer.lastToken == "19999")
    }
}
