import LatchkeyDescriptor
import Testing

@Suite("JSON duplicate keys")
struct JSONDuplicateKeyTests {
    @Test("a duplicate key is an error at the second key; the tree is still returned")
    func duplicate() throws {
        let result = JSONParser.parse("{\n  \"a\": 1,\n  \"a\": 2\n}")
        #expect(result.diagnostics.count == 1)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.message == "duplicate key \"a\": first defined at 2:3")
        #expect(diagnostic.location == LatchkeyDescriptor.SourceLocation(line: 3, column: 3))
        #expect(diagnostic.pointer == "/a")
        let object = try #require(result.root?.object)
        #expect(object.keys == ["a", "a"])
        #expect(object["a"]?.int == 1)
        #expect(result.hasErrors)
    }

    @Test("every duplicate is reported, in source order, at every depth")
    func many() throws {
        let text = """
            {"x": 1, "y": {"x": 2, "x": 3, "x": 4}, "x": 5, "z": [{"k": 0, "k": 0}]}
            """
        let result = JSONParser.parse(text)
        #expect(result.root != nil)
        #expect(
            result.diagnostics.map(\.message) == [
                "duplicate key \"x\": first defined at 1:16",
                "duplicate key \"x\": first defined at 1:16",
                "duplicate key \"x\": first defined at 1:2",
                "duplicate key \"k\": first defined at 1:56",
            ])
        #expect(
            result.diagnostics.map(\.location) == [
                LatchkeyDescriptor.SourceLocation(line: 1, column: 24),
                LatchkeyDescriptor.SourceLocation(line: 1, column: 32),
                LatchkeyDescriptor.SourceLocation(line: 1, column: 41),
                LatchkeyDescriptor.SourceLocation(line: 1, column: 64),
            ])
        #expect(result.diagnostics.map(\.pointer) == ["/y/x", "/y/x", "/x", "/z/0/k"])
    }

    @Test("keys are compared after decoding escapes")
    func escapedDuplicate() {
        let result = JSONParser.parse("{\"a\": 1, \"\\u0061\": 2}")
        #expect(result.diagnostics.map(\.message) == ["duplicate key \"a\": first defined at 1:2"])
    }

    @Test("same key in sibling objects is fine")
    func siblings() {
        let result = JSONParser.parse("[{\"a\": 1}, {\"a\": 2}]")
        #expect(result.diagnostics.isEmpty)
    }

    @Test("duplicates in large objects are found too (indexed lookup)")
    func largeObject() throws {
        var members = (0..<50).map { "\"k\($0)\": \($0)" }
        members.append("\"k7\": 99")
        members.append("\"k49\": 98")
        let result = JSONParser.parse("{" + members.joined(separator: ", ") + "}")
        #expect(result.diagnostics.map(\.pointer) == ["/k7", "/k49"])
        let object = try #require(result.root?.object)
        #expect(object["k7"]?.int == 7)
        #expect(object["k49"]?.int == 49)
        #expect(object.count == 52)
    }

    @Test("duplicates found before a syntax error are kept, then parsing stops")
    func duplicateThenSyntaxError() {
        let result = JSONParser.parse("{\"a\": 1, \"a\": 2,}")
        #expect(result.root == nil)
        #expect(
            result.diagnostics.map(\.message) == [
                "duplicate key \"a\": first defined at 1:2",
                "trailing comma before '}' is not allowed in JSON",
            ])
    }
}
