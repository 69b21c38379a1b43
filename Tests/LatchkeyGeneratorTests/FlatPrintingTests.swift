import LatchkeyVocabulary
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

    /// Pairs whose texts are equal although their shapes are not, and near misses of the same width.
    static let lookAlikes: [(SwiftExpression, SwiftExpression)] = [
        (.int(1), .number("1")), (.symbol("nil"), .none), (.symbol("[]"), .array([])),
        (
            .dictionary([(key: "a", value: .int(1)), (key: "b", value: .int(2))]),
            .dictionary([(key: "b", value: .int(2)), (key: "a", value: .int(1))])
        ),
        (.string("ab"), .string("ba")), (.int(12), .int(21)), (.array([.int(1)]), .array([.int(2)])),
    ]

    @Test("two expressions are equal exactly when their single-line texts are")
    func equalityIsTheText() {
        let all = Self.expressions + Self.lookAlikes.flatMap { [$0.0, $0.1] }
        for lhs in all {
            for rhs in all {
                #expect((lhs == rhs) == (lhs.singleLine == rhs.singleLine), "\(lhs.singleLine) vs \(rhs.singleLine)")
            }
        }
        #expect(Self.lookAlikes.prefix(4).allSatisfy { $0.0 == $0.1 })
        #expect(Self.lookAlikes.dropFirst(4).allSatisfy { $0.0 != $0.1 })
    }
}

/// The table of Swift case names gives what each term's own reflection gives.
@Suite struct VocabularySwiftCaseTests {
    private static func check<Term: VocabularyTerm>(_ type: Term.Type) -> [String] {
        Term.allCases.compactMap { term in
            VocabularySwiftCases.name(of: term) == term.swiftCase ? nil : "\(Term.self).\(term.rawValue)"
        }
    }

    @Test func everyTermHasItsOwnCaseName() {
        let wrong = Vocabulary.termTypes.flatMap { Self.check($0) }
        #expect(wrong.isEmpty)
        #expect(SwiftExpression.term(ClientAuthenticationMethod.basicIfSecret).singleLine == ".basicIfSecret")
    }
}

/// Rendered code loses the spaces at the end of its lines, and nothing else.
@Suite struct TrailingSpaceTests {
    /// What the renderer must give: each line with its trailing spaces cut.
    private static func reference(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = Substring(line)
            while line.last == " " { line.removeLast() }
            return String(line)
        }.joined(separator: "\n")
    }

    @Test(arguments: [
        "", " ", "\n", "a", "a  \nb \n\n   \nc  ", "  lead\n\ttab \t \nend", "é  \n日本 \n😀", "crlf \r\nnext",
        "no trailing\nspaces here\n", String(repeating: "x ", count: 500) + "\n" + String(repeating: " ", count: 300),
    ])
    func cutsEveryLine(text: String) {
        #expect(Template.removingTrailingSpaces(Array(text.utf8)) == Self.reference(text))
    }

    @Test func randomTexts() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", " ", " ", "\n", "é", "😀", "\t", "\r"]
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0..<60, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }
            .joined()
            #expect(Template.removingTrailingSpaces(Array(text.utf8)) == Self.reference(text), "\(Array(text.utf8))")
        }
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
