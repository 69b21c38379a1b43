import LatchkeyDescriptor
import Testing

/// One malformed document and the single error it must produce.
struct JSONSyntaxErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var input: String
    var line: Int
    var column: Int
    var message: String
    var pointer: String

    init(_ name: String, _ input: String, _ line: Int, _ column: Int, _ message: String, pointer: String = "") {
        self.name = name
        self.input = input
        self.line = line
        self.column = column
        self.message = message
        self.pointer = pointer
    }

    var testDescription: String { name }
}

@Suite("JSON syntax errors")
struct JSONSyntaxErrorTests {
    static let cases: [JSONSyntaxErrorCase] = [
        // Empty input
        .init("empty file", "", 1, 1, "the file is empty: a descriptor is a JSON object"),
        .init("whitespace only", "  \n\t\r\n ", 1, 1, "the file is empty: a descriptor is a JSON object"),

        // Truncation
        .init("unclosed object", "{", 1, 2, "unexpected end of file: the object opened at 1:1 is not closed"),
        .init(
            "unclosed object after member", "{\n  \"a\": 1", 2, 9,
            "unexpected end of file: the object opened at 1:1 is not closed"),
        .init(
            "unclosed inner object", "{\"a\": [\n    {\"b\": 1,\n", 3, 1,
            "unexpected end of file: the object opened at 2:5 is not closed", pointer: "/a/0"),
        .init("unclosed array", "[1, 2", 1, 6, "unexpected end of file: the array opened at 1:1 is not closed"),
        .init("eof after colon", "{\"a\":", 1, 6, "unexpected end of file: the object opened at 1:1 is not closed"),
        .init("eof after key", "{\"a\"", 1, 5, "unexpected end of file: the object opened at 1:1 is not closed"),
        .init("eof after comma", "[1,", 1, 4, "unexpected end of file: the array opened at 1:1 is not closed"),
        .init("unclosed string", "\"abc", 1, 5, "unexpected end of file: the string started at 1:1 is not closed"),
        .init(
            "unclosed key", "{\"ab", 1, 5, "unexpected end of file: the string started at 1:2 is not closed"),
        .init(
            "eof in escape", "[\"a\\", 1, 5, "unexpected end of file: the string started at 1:2 is not closed",
            pointer: "/0"),
        .init(
            "eof in unicode escape", "\"\\u00", 1, 6, "unexpected end of file: the string started at 1:1 is not closed"
        ),

        // Commas
        .init(
            "missing comma between members", "{\"a\": 1 \"b\": 2}", 1, 9,
            "expected ',' or '}' after an object member, found '\"'"),
        .init(
            "missing comma between elements", "[1 2]", 1, 4, "expected ',' or ']' after an array element, found '2'"),
        .init(
            "missing comma on next line", "[\"a\",\n  \"b\"\n  \"c\"]", 3, 3,
            "expected ',' or ']' after an array element, found '\"'"),
        .init("trailing comma in object", "{\"a\": 1,}", 1, 8, "trailing comma before '}' is not allowed in JSON"),
        .init(
            "trailing comma in object, newline", "{\n  \"a\": 1,\n}", 2, 9,
            "trailing comma before '}' is not allowed in JSON"),
        .init("trailing comma in array", "[1, 2, ]", 1, 6, "trailing comma before ']' is not allowed in JSON"),
        .init(
            "leading comma in array", "[,1]", 1, 2, "expected a JSON value or ']' after '[', found ','", pointer: "/0"),
        .init("double comma", "[1,,2]", 1, 4, "expected a JSON value after ',', found ','", pointer: "/1"),
        .init(
            "leading comma in object", "{,\"a\":1}", 1, 2, "expected a string key or '}' after '{', found ','"),
        .init(
            "double comma in object", "{\"a\":1,,\"b\":2}", 1, 8, "expected a string key after ',', found ','"),

        // Keys and colons
        .init("missing colon", "{\"a\" 1}", 1, 6, "expected ':' after the key \"a\", found '1'"),
        .init("equals instead of colon", "{\"a\" = 1}", 1, 6, "expected ':' after the key \"a\", found '='"),
        .init(
            "missing value", "{\"a\": }", 1, 7, "expected a value for the key \"a\" after ':', found '}'",
            pointer: "/a"),
        .init("unquoted key", "{a: 1}", 1, 2, "object keys must be double-quoted strings, found 'a'"),
        .init("number key", "{1: 1}", 1, 2, "object keys must be double-quoted strings, found '1'"),
        .init(
            "single-quoted key", "{'a': 1}", 1, 2, "single-quoted strings are not allowed in JSON: use double quotes"
        ),
        .init(
            "single-quoted value", "{\"a\": 'b'}", 1, 7,
            "single-quoted strings are not allowed in JSON: use double quotes", pointer: "/a"),

        // Comments
        .init("line comment first", "// hello\n{}", 1, 1, "comments are not allowed in JSON"),
        .init("block comment in object", "{\n  /* x */ \"a\": 1}", 2, 3, "comments are not allowed in JSON"),
        .init("comment after value", "{\"a\": 1 // one\n}", 1, 9, "comments are not allowed in JSON"),
        .init("comment after top level", "{} /* done */", 1, 4, "comments are not allowed in JSON"),
        .init("comment as value", "[/**/1]", 1, 2, "comments are not allowed in JSON", pointer: "/0"),
        .init("lone slash", "[/]", 1, 2, "expected a JSON value or ']' after '[', found '/'", pointer: "/0"),

        // Strings
        .init(
            "raw newline in string", "[\"a\nb\"]", 1, 4, "unescaped control character U+000A (line feed) in a string",
            pointer: "/0"),
        .init("raw tab in string", "\"a\tb\"", 1, 3, "unescaped control character U+0009 (tab) in a string"),
        .init("raw NUL in string", "\"a\u{0}b\"", 1, 3, "unescaped control character U+0000 (NUL) in a string"),
        .init("raw U+001F in string", "\"\u{1F}\"", 1, 2, "unescaped control character U+001F in a string"),
        .init("invalid escape", "[\"\\x\"]", 1, 3, "invalid escape sequence '\\x' in a string", pointer: "/0"),
        .init("escaped single quote", "\"\\'\"", 1, 2, "invalid escape sequence '\\'' in a string"),
        .init(
            "bad unicode escape", "\"ab\\u12G4\"", 1, 4,
            "invalid \\u escape in a string: expected 4 hex digits, found 'G' after 2 digits"),
        .init(
            "short unicode escape", "\"\\u12\"", 1, 2,
            "invalid \\u escape in a string: expected 4 hex digits, found '\"' after 2 digits"),
        .init(
            "lone high surrogate", "{\"k\": \"\\ud800\"}", 1, 8, "lone surrogate \\ud800 in a string",
            pointer: "/k"),
        .init("lone low surrogate", "\"\\uDC00\"", 1, 2, "lone surrogate \\uDC00 in a string"),
        .init("high surrogate then letter", "\"\\ud83dx\"", 1, 2, "lone surrogate \\ud83d in a string"),
        .init("two high surrogates", "\"\\ud83d\\ud83d\"", 1, 2, "lone surrogate \\ud83d in a string"),
        .init("high surrogate then BMP escape", "\"\\ud83d\\u0041\"", 1, 2, "lone surrogate \\ud83d in a string"),

        // Numbers
        .init("leading zero", "01", 1, 1, "leading zeros are not allowed in JSON numbers"),
        .init("negative leading zero", "[-012]", 1, 2, "leading zeros are not allowed in JSON numbers", pointer: "/0"),
        .init("minus alone", "-", 1, 2, "expected a digit after '-', found end of file"),
        .init("minus then letter", "[-a]", 1, 3, "expected a digit after '-', found 'a'", pointer: "/0"),
        .init("trailing dot", "1.", 1, 3, "expected a digit after the decimal point, found end of file"),
        .init(
            "dot then exponent", "[1.e5]", 1, 4, "expected a digit after the decimal point, found 'e5'", pointer: "/0"),
        .init("leading dot", ".5", 1, 1, "a JSON number cannot start with '.'"),
        .init("leading plus", "+1", 1, 1, "a JSON number cannot start with '+'"),
        .init("empty exponent", "1e", 1, 3, "expected a digit in the exponent, found end of file"),
        .init("signed empty exponent", "[1E+]", 1, 5, "expected a digit in the exponent, found ']'", pointer: "/0"),
        .init("hexadecimal", "0x1F", 1, 1, "hexadecimal numbers are not allowed in JSON"),
        .init("NaN", "NaN", 1, 1, "NaN is not allowed in JSON"),
        .init("Infinity", "[Infinity]", 1, 2, "Infinity is not allowed in JSON", pointer: "/0"),
        .init("minus Infinity", "-Infinity", 1, 1, "-Infinity is not allowed in JSON"),
        .init("plus Infinity", "+Infinity", 1, 1, "+Infinity is not allowed in JSON"),
        .init("second dot", "[1.5.3]", 1, 5, "expected ',' or ']' after an array element, found '.'"),

        // Literals
        .init("truncated true", "tru", 1, 1, "invalid literal 'tru'; did you mean 'true'?"),
        .init("truncated false", "[fa]", 1, 2, "invalid literal 'fa'; did you mean 'false'?", pointer: "/0"),
        .init("misspelt null", "{\"a\": nulll}", 1, 7, "invalid literal 'nulll'; did you mean 'null'?", pointer: "/a"),
        .init("capitalised True", "True", 1, 1, "invalid literal 'True': JSON literals are lowercase"),
        .init("capitalised None", "None", 1, 1, "'None' is not a JSON value"),
        .init("undefined", "[undefined]", 1, 2, "'undefined' is not a JSON value", pointer: "/0"),
        .init("bare word", "hello", 1, 1, "expected a JSON value, found 'hello'"),
        .init("true with suffix", "[truex]", 1, 2, "invalid literal 'truex'; did you mean 'true'?", pointer: "/0"),

        // Structure
        .init("garbage after object", "{} x", 1, 4, "unexpected content after the top-level value, found 'x'"),
        .init("second top-level value", "1 2", 1, 3, "unexpected content after the top-level value, found '2'"),
        .init("extra closer", "{\"a\":1}}", 1, 8, "unexpected content after the top-level value, found '}'"),
        .init(
            "garbage on later line", "{\n}\n\n  ]", 4, 3, "unexpected content after the top-level value, found ']'"),
        .init("wrong closer", "[1}", 1, 3, "expected ',' or ']' after an array element, found '}'"),
        .init("wrong closer in object", "{\"a\":1]", 1, 7, "expected ',' or '}' after an object member, found ']'"),
        .init("lone closer", "]", 1, 1, "expected a JSON value, found ']'"),
        .init("NUL byte at top level", "\u{0}", 1, 1, "expected a JSON value, found U+0000 (NUL)"),
        .init("NUL after value", "{}\u{0}", 1, 3, "unexpected content after the top-level value, found U+0000 (NUL)"),
        .init("curly quotes", "{\u{201C}a\u{201D}: 1}", 1, 2, "found a curly quote '\u{201C}' (U+201C)"),
        .init(
            "non-breaking space", "[1,\u{A0}2]", 1, 4,
            "expected a JSON value after ',', found a non-breaking space (U+00A0)", pointer: "/1"),
        .init("BOM in the middle", "[\u{FEFF}1]", 1, 2, "found a byte order mark (U+FEFF)", pointer: "/0"),
        .init("form feed is not whitespace", "[\u{0C}1]", 1, 2, "found control character U+000C", pointer: "/0"),

        // Locations count Unicode scalars, lines end at LF, CRLF or CR
        .init("column after multi-byte key", "{\"é🎉\": tru}", 1, 8, "invalid literal 'tru'", pointer: "/é🎉"),
        .init("column after combining mark", "[\"e\u{301}\", x]", 1, 8, "found 'x'", pointer: "/1"),
        .init("CRLF lines", "{\r\n  \"a\": 1\r\n  \"b\": 2\r\n}", 3, 3, "expected ',' or '}' after an object member"),
        .init("CR lines", "[\r1\r\r x]", 4, 2, "expected ',' or ']' after an array element, found 'x'"),
        .init(
            "BOM does not count as a column", "\u{FEFF}[1, x]", 1, 5, "expected a JSON value after ',', found 'x'",
            pointer: "/1"),
    ]

    @Test("each malformed document yields one error at the exact place", arguments: cases)
    func syntaxError(_ example: JSONSyntaxErrorCase) throws {
        let result = JSONParser.parse(example.input)
        #expect(result.root == nil)
        #expect(result.diagnostics.count == 1)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.message.contains(example.message), "message was: \(diagnostic.message)")
        #expect(diagnostic.location == LatchkeyDescriptor.SourceLocation(line: example.line, column: example.column))
        #expect(diagnostic.pointer == example.pointer)
    }

    @Test("byte input and string input give the same result", arguments: cases)
    func bytesMatchString(_ example: JSONSyntaxErrorCase) {
        let fromString = JSONParser.parse(example.input)
        let fromBytes = JSONParser.parse(Array(example.input.utf8))
        let fromSlice = JSONParser.parse(Array(example.input.utf8)[...])
        let fromNonContiguous = JSONParser.parse(AnyCollection(example.input.utf8))
        #expect(fromString.diagnostics == fromBytes.diagnostics)
        #expect(fromString.diagnostics == fromSlice.diagnostics)
        #expect(fromString.diagnostics == fromNonContiguous.diagnostics)
    }

    @Test("fix-its point at the remedy")
    func fixIts() {
        let missingComma = JSONParser.parse("[1 2]").diagnostics.first
        #expect(missingComma?.fixIt == "insert a ',' before it")
        let wrongCloser = JSONParser.parse("{\n  \"a\": [1}").diagnostics.first
        #expect(wrongCloser?.fixIt == "the array opened at 2:8 must be closed with ']'")
        let trailing = JSONParser.parse("[1,]").diagnostics.first
        #expect(trailing?.fixIt == "remove the ','")
        let literal = JSONParser.parse("fals").diagnostics.first
        #expect(literal?.fixIt == "write 'false'")
        let unclosed = JSONParser.parse("[{").diagnostics.first
        #expect(unclosed?.fixIt == "add the missing '}'")
        #expect(unclosed?.pointer == "/0")
        #expect(unclosed?.location == LatchkeyDescriptor.SourceLocation(line: 1, column: 3))
    }

    @Test("a diagnostic formats as a compiler line")
    func formatted() throws {
        let diagnostic = try #require(JSONParser.parse("{\n  \"a\": 1,\n}").diagnostics.first)
        #expect(
            diagnostic.formatted(file: "x.json")
                == "x.json:2:9: error: trailing comma before '}' is not allowed in JSON (at the top level); remove the ','"
        )
    }

    @Test("long words are cut in messages")
    func longWordIsTruncated() throws {
        let word = String(repeating: "z", count: 10_000)
        let diagnostic = try #require(JSONParser.parse("[\(word)]").diagnostics.first)
        #expect(
            diagnostic.message
                == "expected a JSON value or ']' after '[', found '\(String(repeating: "z", count: 40))…'")
    }
}
