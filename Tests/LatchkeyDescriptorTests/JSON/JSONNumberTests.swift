import LatchkeyDescriptor
import Testing

/// A number lexeme and its integer and double views.
struct JSONNumberCase: Sendable, CustomTestStringConvertible {
    var lexeme: String
    var int: Int?
    var double: Double?

    init(_ lexeme: String, int: Int?, double: Double?) {
        self.lexeme = lexeme
        self.int = int
        self.double = double
    }

    var testDescription: String { lexeme }
}

@Suite("JSON numbers")
struct JSONNumberTests {
    static let cases: [JSONNumberCase] = [
        .init("0", int: 0, double: 0),
        .init("-0", int: 0, double: -0.0),
        .init("42", int: 42, double: 42),
        .init("-17", int: -17, double: -17),
        .init("1.0", int: 1, double: 1),
        .init("1.5", int: nil, double: 1.5),
        .init("1e3", int: 1_000, double: 1_000),
        .init("1200e-2", int: 12, double: 12),
        .init("1.25E+2", int: 125, double: 125),
        .init("0.0e-5", int: 0, double: 0),
        .init("0e999999999999999999999", int: 0, double: 0),
        .init("1e-5", int: nil, double: 0.00001),
        .init("9223372036854775807", int: Int.max, double: 0x1p63),
        .init("-9223372036854775808", int: Int.min, double: -0x1p63),
        .init("9223372036854775808", int: nil, double: 0x1p63),
        .init("-9223372036854775809", int: nil, double: -0x1p63),
        .init("92233720368547758.07e2", int: Int.max, double: 0x1p63),
        .init("1e19", int: nil, double: 1e19),
        .init("1e18", int: 1_000_000_000_000_000_000, double: 1e18),
        .init("1e999999", int: nil, double: nil),
        .init("-1e999999", int: nil, double: nil),
        .init("1e-999999", int: nil, double: 0),
        .init("123456789012345678901234567890", int: nil, double: 1.2345678901234568e29),
        .init("100000000000000000000e-2", int: 1_000_000_000_000_000_000, double: 1e18),
    ]

    @Test("int and double views", arguments: cases)
    func views(_ example: JSONNumberCase) throws {
        let result = JSONParser.parse(example.lexeme)
        #expect(result.diagnostics.isEmpty)
        let number = try #require(result.root?.number)
        #expect(number.lexeme == example.lexeme)
        #expect(number.int == example.int)
        #expect(number.double == example.double)
        #expect(JSONNumber(example.lexeme) == number)
    }

    @Test("a 10,000-digit integer keeps its lexeme and never traps")
    func hugeInteger() throws {
        let digits = "9" + String(repeating: "0", count: 9_999)
        let result = JSONParser.parse("[\(digits), -\(digits), \(digits).5e-10000]")
        #expect(result.diagnostics.isEmpty)
        let numbers = try #require(result.root?.array).compactMap(\.number)
        #expect(numbers.map(\.lexeme) == [digits, "-" + digits, digits + ".5e-10000"])
        #expect(numbers.map(\.int) == [nil, nil, nil])
        #expect(numbers[0].double == nil)
        #expect(numbers[1].double == nil)
        #expect(numbers[2].double == 0.9)
    }

    @Test(
        "the failable initialiser accepts exactly the RFC 8259 grammar",
        arguments: [
            ("0", true), ("-0", true), ("1.5e-3", true), ("1E3", true), ("", false), ("-", false), ("01", false),
            ("1.", false), (".5", false), ("+1", false), ("1e", false), ("1e+", false), ("NaN", false),
            ("Infinity", false), ("0x10", false), (" 1", false), ("1 ", false), ("1_000", false),
        ])
    func validation(lexeme: String, valid: Bool) {
        #expect((JSONNumber(lexeme) != nil) == valid)
    }

    @Test("numbers compare by lexeme")
    func lexemeEquality() {
        #expect(JSONNumber("1") == JSONNumber(1))
        #expect(JSONNumber("1.0") != JSONNumber(1))
        #expect(JSONNumber(-5).lexeme == "-5")
        #expect(JSONNumber(-5).description == "-5")
    }
}
