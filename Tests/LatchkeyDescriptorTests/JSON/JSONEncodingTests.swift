import LatchkeyDescriptor
import Testing

/// Raw bytes (possibly not UTF-8) and the error they must produce.
struct JSONByteErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var line: Int
    var column: Int
    var message: String

    init(_ name: String, _ bytes: [UInt8], _ line: Int, _ column: Int, _ message: String) {
        self.name = name
        self.bytes = bytes
        self.line = line
        self.column = column
        self.message = message
    }

    var testDescription: String { name }
}

@Suite("JSON encoding: UTF-8, BOM, raw bytes")
struct JSONEncodingTests {
    static let q = UInt8(ascii: "\"")

    static let invalidUTF8: [JSONByteErrorCase] = [
        .init("0xFF in a string", [0x5B, q, 0xFF, q, 0x5D], 1, 3, "invalid UTF-8 byte 0xFF"),
        .init("lone continuation byte", [q, 0x61, 0x80, q], 1, 3, "invalid UTF-8 byte 0x80"),
        .init("overlong C0", [q, 0xC0, 0xAF, q], 1, 2, "invalid UTF-8 byte 0xC0"),
        .init("overlong E0", [q, 0xE0, 0x80, 0xAF, q], 1, 2, "invalid UTF-8 sequence 0xE0 0x80"),
        .init("encoded surrogate", [q, 0xC3, 0xA9, 0xED, 0xA0, 0x80, q], 1, 3, "invalid UTF-8 sequence 0xED 0xA0"),
        .init("above U+10FFFF", [q, 0xF4, 0x90, 0x80, 0x80, q], 1, 2, "invalid UTF-8 sequence 0xF4 0x90"),
        .init("F5 lead", [q, 0xF5, 0x80, 0x80, 0x80, q], 1, 2, "invalid UTF-8 byte 0xF5"),
        .init("bad second byte", [q, 0xE2, 0x28, 0xA1, q], 1, 2, "invalid UTF-8 sequence 0xE2 0x28"),
        .init("bad third byte", [q, 0xE2, 0x82, 0x28, q], 1, 2, "invalid UTF-8 sequence 0xE2 0x82 0x28"),
        .init(
            "truncated at end", [q, 0xE2, 0x82], 1, 2, "invalid UTF-8 sequence 0xE2 0x82 (truncated at end of file)"),
        .init("truncated before quote", [q, 0xF0, 0x9F, 0x8E, q], 1, 2, "invalid UTF-8 sequence 0xF0 0x9F 0x8E 0x22"),
        .init("invalid byte as a value", [0x5B, 0xFE, 0x5D], 1, 2, "invalid UTF-8 byte 0xFE"),
        .init("Latin-1 key", [0x7B, q, 0xE9, q, 0x3A, 0x31, 0x7D], 1, 3, "invalid UTF-8 sequence 0xE9 0x22"),
        .init(
            "invalid after value", [0x31, 0x20, 0xC3], 1, 3, "invalid UTF-8 sequence 0xC3 (truncated at end of file)"),
        .init("invalid after an escape", [q, 0x5C, 0xFF, q], 1, 3, "invalid UTF-8 byte 0xFF"),
        .init(
            "on a later line after multi-byte text",
            [0x5B, q, 0xC3, 0xA9, q, 0x2C, 0x0A, 0x20, q, 0xC3, 0xA9, 0xFF, q, 0x5D], 2, 4, "invalid UTF-8 byte 0xFF"),
        .init("UTF-16 little endian", [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], 1, 1, "invalid UTF-8 byte 0xFF"),
        .init("NUL byte", [0x7B, 0x00, 0x7D], 1, 2, "expected a string key or '}' after '{', found U+0000 (NUL)"),
    ]

    @Test("ill-formed UTF-8 is reported at the first byte of the bad sequence", arguments: invalidUTF8)
    func invalidBytes(_ example: JSONByteErrorCase) throws {
        let result = JSONParser.parse(example.bytes)
        #expect(result.root == nil)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1)
        #expect(diagnostic.message.contains(example.message), "message was: \(diagnostic.message)")
        #expect(diagnostic.location == LatchkeyDescriptor.SourceLocation(line: example.line, column: example.column))
    }

    @Test("a UTF-16 file gets a hint")
    func utf16Hint() {
        let result = JSONParser.parse([0xFE, 0xFF, 0x00, 0x7B, 0x00, 0x7D] as [UInt8])
        #expect(result.diagnostics.first?.fixIt == "the file looks UTF-16 encoded; save it as UTF-8")
    }

    @Test("a leading UTF-8 BOM is accepted and skipped")
    func byteOrderMark() throws {
        let result = JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{\"a\": true}".utf8))
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.root)
        #expect(root.location == LatchkeyDescriptor.SourceLocation(line: 1, column: 1))
        let member = try #require(root.object?.member("a"))
        #expect(member.keyLocation == LatchkeyDescriptor.SourceLocation(line: 1, column: 2))
        #expect(member.value.location == LatchkeyDescriptor.SourceLocation(line: 1, column: 7))
        #expect(member.value.bool == true)
    }

    @Test("a BOM alone is an empty file")
    func byteOrderMarkOnly() {
        let result = JSONParser.parse([0xEF, 0xBB, 0xBF] as [UInt8])
        #expect(result.root == nil)
        #expect(result.diagnostics.map(\.message) == ["the file is empty: a descriptor is a JSON object"])
    }

    @Test("a second BOM is not whitespace")
    func doubleByteOrderMark() {
        let result = JSONParser.parse([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x31] as [UInt8])
        #expect(result.diagnostics.first?.location == LatchkeyDescriptor.SourceLocation(line: 1, column: 1))
        #expect(result.diagnostics.first?.message == "expected a JSON value, found a byte order mark (U+FEFF)")
    }

    @Test("all valid UTF-8 lengths decode, and columns count scalars")
    func multiByteColumns() throws {
        // "a" + é (2 bytes) + € (3 bytes) + 🎉 (4 bytes), then a value after it.
        let result = JSONParser.parse("[\"aé€🎉\", 7]")
        let elements = try #require(result.root?.array)
        #expect(elements[0].string == "aé€🎉")
        #expect(elements[1].location == LatchkeyDescriptor.SourceLocation(line: 1, column: 10))
        #expect(elements[1].int == 7)
    }

    @Test("NUL, DEL and noncharacters are fine when escaped or allowed")
    func allowedOddCharacters() throws {
        let result = JSONParser.parse("[\"\\u0000\", \"\u{7F}\", \"\u{FFFF}\", \"\u{10FFFF}\"]")
        #expect(result.diagnostics.isEmpty)
        let strings = try #require(result.root?.array).map(\.string)
        #expect(strings == ["\u{0}", "\u{7F}", "\u{FFFF}", "\u{10FFFF}"])
    }
}
