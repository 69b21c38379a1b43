import LatchkeyGenerator
import Testing

@Suite struct EscapingTests {
    @Test(arguments: [
        ("plain", #""plain""#),
        ("quote\"", #""quote\"""#),
        ("back\\slash", #""back\\slash""#),
        ("interp \\(x)", #""interp \\(x)""#),
        ("line\nbreak", #""line\nbreak""#),
        ("nul\u{0}", #""nul\0""#),
        ("sep\u{2028}", #""sep\u{2028}""#),
        ("\"\"\"", #""\"\"\"""#),
        ("#\"raw\"#", ##""#\"raw\"#""##),
        ("é", #""\u{E9}""#),
    ])
    func stringLiterals(input: String, expected: String) {
        #expect(SwiftLiteral.string(input) == expected)
    }

    @Test(arguments: [
        ("acme", "acme"),
        ("class", "`class`"),
        ("9lives", "_9lives"),
        ("a-b c", "a_b_c"),
        ("", "_"),
        ("`x`", "_x_"),
    ])
    func identifiers(input: String, expected: String) {
        #expect(SwiftLiteral.identifier(input) == expected)
    }

    @Test func commentsContinueOnEveryKindOfLineBreak() {
        let text = "one\ntwo\r\nthree\u{2028}four\u{2029}five\u{85}six\rseven */ `code` \u{0}"
        let escaped = SwiftLiteral.commentText(text, continuation: "    /// ")
        #expect(
            escaped
                == "one\n    /// two\n    /// three\n    /// four\n    /// five\n    /// six\n    /// seven */ `code`")
        for line in escaped.split(separator: "\n").dropFirst() { #expect(line.hasPrefix("    /// ")) }
    }

    @Test func placeholderWithoutEscapingIsRefused() {
        #expect(throws: TemplateError.self) { try Template(source: "let x = {{name}}", name: "t") }
        #expect(throws: TemplateError.self) { try Template(source: "let x = {{name | raw}}", name: "t") }
    }

    @Test func descriptorTextCannotBeInsertedAsCode() throws {
        let template = try Template(source: "let x = {{name | code}}", name: "t")
        #expect(throws: TemplateError.self) { try template.render(TemplateContext(["name": .text("evil()")])) }
    }

    @Test func sectionsAndStandaloneLines() throws {
        let template = try Template(
            source:
                "a\n{{#each items}}\n- {{name | string}}{{#unless last}},{{/unless}}\n{{/each}}\n{{#if flag}}\nyes\n{{else}}\nno\n{{/if}}\nz",
            name: "t")
        let context = TemplateContext([
            "items": .list([TemplateContext(["name": .text("x")]), TemplateContext(["name": .text("y")])]),
            "flag": .bool(false),
        ])
        #expect(try template.render(context).text == "a\n- \"x\",\n- \"y\"\nno\nz")
    }

    @Test func unclosedSectionIsASyntaxError() {
        #expect(throws: TemplateError.self) { try Template(source: "{{#if x}}\nopen", name: "t") }
        #expect(throws: TemplateError.self) { try Template(source: "{{/if}}", name: "t") }
    }
}
