import LatchkeyDescriptor
import Testing

/// A valid scalar document and the value it must parse to.
struct JSONScalarCase: Sendable, CustomTestStringConvertible {
    var input: String
    var value: JSONValue
    var typeName: String

    init(_ input: String, _ value: JSONValue, _ typeName: String) {
        self.input = input
        self.value = value
        self.typeName = typeName
    }

    var testDescription: String { input.debugDescription }
}

private func loc(_ line: Int, _ column: Int) -> LatchkeyDescriptor.SourceLocation {
    LatchkeyDescriptor.SourceLocation(line: line, column: column)
}

private func node(_ value: JSONValue, _ line: Int, _ column: Int, _ pointer: [String]) -> JSONNode {
    JSONNode(value: value, location: loc(line, column), pointer: JSONPointer(tokens: pointer))
}

private func number(_ lexeme: String) -> JSONValue {
    .number(JSONNumber(lexeme)!)
}

@Suite("JSON valid documents")
struct JSONValidDocumentTests {
    static let scalars: [JSONScalarCase] = [
        .init("true", .bool(true), "boolean"),
        .init("false", .bool(false), "boolean"),
        .init("null", .null, "null"),
        .init("0", number("0"), "number"),
        .init("-0", number("-0"), "number"),
        .init("  42  ", number("42"), "number"),
        .init("-12.5e+3", number("-12.5e+3"), "number"),
        .init("1E-2", number("1E-2"), "number"),
        .init("\"\"", .string(""), "string"),
        .init("\"plain\"", .string("plain"), "string"),
        .init("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", .string("\"\\/\u{8}\u{C}\n\r\t"), "string"),
        .init("\"\\u0041\\u00e9\\u20AC\"", .string("Aé€"), "string"),
        .init("\"\\ud83c\\udf89\"", .string("🎉"), "string"),
        .init("\"\\uD83C\\uDF89x\"", .string("🎉x"), "string"),
        .init("\"a\\u0000b\"", .string("a\u{0}b"), "string"),
        .init("\"é𝄞\"", .string("é𝄞"), "string"),
        .init("\"\u{7F}\"", .string("\u{7F}"), "string"),
        .init("{}", .object(JSONObject()), "object"),
        .init("[]", .array([]), "array"),
        .init("{ \n }", .object(JSONObject()), "object"),
        .init("[\t]", .array([]), "array"),
    ]

    @Test("scalars and empty containers at the top level", arguments: scalars)
    func scalar(_ example: JSONScalarCase) throws {
        let result = JSONParser.parse(example.input)
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.root)
        #expect(root.value == example.value)
        #expect(root.typeName == example.typeName)
        #expect(root.pointer == .root)
    }

    @Test("a nested document: exact tree, locations and pointers")
    func nestedDocument() throws {
        let text = """
            {
              "name": "acme",
              "scopes": ["read", 2, null],
              "a/b": {"~x": false},
              "n": -1.5e3
            }
            """
        let result = JSONParser.parse(text)
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.root)

        let expected = node(
            .object(
                JSONObject(members: [
                    JSONMember(key: "name", keyLocation: loc(2, 3), value: node(.string("acme"), 2, 11, ["name"])),
                    JSONMember(
                        key: "scopes", keyLocation: loc(3, 3),
                        value: node(
                            .array([
                                node(.string("read"), 3, 14, ["scopes", "0"]),
                                node(number("2"), 3, 22, ["scopes", "1"]),
                                node(.null, 3, 25, ["scopes", "2"]),
                            ]), 3, 13, ["scopes"])),
                    JSONMember(
                        key: "a/b", keyLocation: loc(4, 3),
                        value: node(
                            .object(
                                JSONObject(members: [
                                    JSONMember(
                                        key: "~x", keyLocation: loc(4, 11),
                                        value: node(.bool(false), 4, 17, ["a/b", "~x"]))
                                ])), 4, 10, ["a/b"])),
                    JSONMember(key: "n", keyLocation: loc(5, 3), value: node(number("-1.5e3"), 5, 8, ["n"])),
                ])), 1, 1, [])
        #expect(root == expected)

        let object = try #require(root.object)
        #expect(object.keys == ["name", "scopes", "a/b", "n"])
        #expect(object["scopes"]?.array?[1].pointer.description == "/scopes/1")
        #expect(object["a/b"]?.object?["~x"]?.pointer.description == "/a~1b/~0x")
        #expect(object["n"]?.double == -1500)
        #expect(object["n"]?.int == -1500)
        #expect(object["missing"] == nil)
        #expect(object["name"]?.string == "acme")
        #expect(object["name"]?.int == nil)
    }

    @Test("convenience accessors return nil for other types")
    func accessors() throws {
        let root = try #require(JSONParser.parse("[\"s\", true, 3, {}, [], null]").root)
        let items = try #require(root.array)
        #expect(items.map(\.typeName) == ["string", "boolean", "number", "object", "array", "null"])
        #expect(items.map { $0.string != nil } == [true, false, false, false, false, false])
        #expect(items.map { $0.bool != nil } == [false, true, false, false, false, false])
        #expect(items.map { $0.int != nil } == [false, false, true, false, false, false])
        #expect(items.map { $0.object != nil } == [false, false, false, true, false, false])
        #expect(items.map { $0.array != nil } == [false, false, false, false, true, false])
        #expect(items.map(\.isNull) == [false, false, false, false, false, true])
    }

    @Test("whitespace of every kind and CRLF line ends")
    func whitespace() throws {
        let result = JSONParser.parse("\r\n\t [ 1 ,\r\n\t2\r\n]\n\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.root)
        #expect(root.location == loc(2, 3))
        let elements = try #require(root.array)
        #expect(elements.map(\.location) == [loc(2, 5), loc(3, 2)])
        #expect(elements.map(\.int) == [1, 2])
    }

    @Test("a long string with escapes in several places")
    func longEscapedString() throws {
        let body = String(repeating: "abc\\n", count: 1_000) + "\\u00e9" + String(repeating: "é", count: 1_000)
        let expected = String(repeating: "abc\n", count: 1_000) + "é" + String(repeating: "é", count: 1_000)
        let result = JSONParser.parse("[\"\(body)\", 1]")
        let elements = try #require(result.root?.array)
        #expect(elements[0].string == expected)
        // '[' and '"' take columns 1-2, the body (5 * 1000 + 6 + 1000 scalars) 3-6008, then '"', ',' and ' '.
        #expect(elements[1].location == loc(1, 6_012))
    }

    @Test("objects of any size: lookup returns the first occurrence")
    func largeObject() throws {
        let members = (0..<1_000).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let result = JSONParser.parse("{\(members)}")
        #expect(result.diagnostics.isEmpty)
        let object = try #require(result.root?.object)
        #expect(object.count == 1_000)
        #expect(object["k0"]?.int == 0)
        #expect(object["k999"]?.int == 999)
        #expect(object["k999"]?.pointer.description == "/k999")
        #expect(object["k1000"] == nil)
        #expect(object.keys.prefix(3) == ["k0", "k1", "k2"])
    }

    @Test("editing members keeps lookups right, for small and large objects", arguments: [3, 20])
    func editedObject(size: Int) throws {
        let members = (0..<size).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        var object = try #require(JSONParser.parse("{\(members)}").root?.object)
        object.members.removeFirst()
        #expect(object["k0"] == nil)
        #expect(object["k1"]?.int == 1)
        object.members.append(JSONMember(key: "new", keyLocation: .start, value: object.members[0].value))
        #expect(object["new"]?.int == 1)
        #expect(object.member("new")?.keyLocation == .start)
    }

    @Test("parsing the same text twice gives equal trees; different text gives different trees")
    func equality() throws {
        let a = try #require(JSONParser.parse("{\"a\": [1, 2]}").root)
        let b = try #require(JSONParser.parse("{\"a\": [1, 2]}").root)
        let c = try #require(JSONParser.parse("{\"a\": [1, 3]}").root)
        let d = try #require(JSONParser.parse("{\"a\":  [1, 2]}").root)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != c)
        #expect(a != d)  // locations differ
        #expect(a.value != JSONValue.number(JSONNumber(1)))
    }
}
