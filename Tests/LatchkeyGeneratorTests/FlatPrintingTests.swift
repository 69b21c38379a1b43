import Testing

@testable import LatchkeyGenerator

/// The spec literal is measured before it is printed on one line; the measure must equal the printed
/// length exactly, or a line would break (or not) in another place than before.
@Suite struct FlatPrintingTests {
    static let texts = [
        "", "plain", "quote\"", "back\\slash", "line\nbreak\r\t", "nul\u{0}", "sep\u{2028}", "é", "😀", "\u{7F}",
        "\u{1}\u{1F}", "mixed é 😀 \" \\ \n", String(repeating: "x", count: 300),
    ]

    @Test("stringWidth is the UTF-8 length of the literal", arguments: texts)
    func stringWidth(text: String) {
        #expect(SwiftLiteral.stringWidth(text) == SwiftLiteral.string(text).utf8.count)
    }

    static let expressions: [SwiftExpression] = [
        .none, .bool(true), .int(-42), .number("1.5e3"), .symbol(".json"), .string("a\"b"),
        .call("Name", []), .call("F", [.init(label: "x", value: .int(1)), .init(label: nil, value: .string("é"))]),
        .array([]), .array([.string("a"), .array([.int(1), .int(2)])]),
        .dictionary([]), .dictionary([(key: "b\n", value: .int(2)), (key: "a", value: .dictionary([]))]),
        .call(
            "Spec",
            [
                .init(label: "values", value: .array((0..<40).map { .string("value-\($0)-😀") })),
                .init(label: "table", value: .dictionary((0..<30).map { (key: "k\($0)", value: .int($0)) })),
            ]),
    ]

    @Test("flat(within:) gives the single-line form exactly when it fits", arguments: expressions)
    func flatForm(expression: SwiftExpression) {
        let line = expression.singleLine
        let width = line.utf8.count
        #expect(expression.flat(within: width) == line)
        #expect(expression.flat(within: width + 7) == line)
        if width > 0 { #expect(expression.flat(within: width - 1) == nil) }
    }
}

/// swift-format's `TrailingComma` rule: a collection broken over lines ends every element with a comma,
/// except when it holds one element.
@Suite struct TrailingCommaPrintingTests {
    static let long = String(repeating: "x", count: 120)

    @Test func oneElementBrokenOverLinesHasNoTrailingComma() {
        let array = SwiftExpression.array([.string(Self.long)]).printed(indent: 0)
        #expect(array == "[\n    \"\(Self.long)\"\n]")
        let dictionary = SwiftExpression.dictionary([(key: "k", value: .string(Self.long))]).printed(indent: 0)
        #expect(dictionary == "[\n    \"k\": \"\(Self.long)\"\n]")
    }

    @Test func severalElementsEachEndWithAComma() {
        let array = SwiftExpression.array([.string(Self.long), .int(1)]).printed(indent: 0)
        #expect(array == "[\n    \"\(Self.long)\",\n    1,\n]")
    }
}
