import LatchkeyVocabulary
import Testing

/// The template syntax is parsed once, here: into literal, variable and fallback segments that the generator
/// emits and the runtime fills as they are.
@Suite struct ValueTemplateParsingTests {
    @Test(
        arguments: [
            ("", []),
            ("https://example.com/x", [.literal("https://example.com/x")]),
            ("{projectURL}/auth/v1", [.variable("projectURL"), .literal("/auth/v1")]),
            ("a{b}c{d.e}", [.literal("a"), .variable("b"), .literal("c"), .variable("d.e")]),
            ("{{x}}/{y}", [.literal("{x}/"), .variable("y")]),
            ("{a ?? b}", [.firstOf(["a", "b"])]),
            ("{discovered.x??fallback}/p", [.firstOf(["discovered.x", "fallback"]), .literal("/p")]),
            ("é{v}😀", [.literal("é"), .variable("v"), .literal("😀")]),
        ] as [(String, [ValueTemplate.Segment])])
    func parsesIntoSegments(text: String, segments: [ValueTemplate.Segment]) throws {
        let template = try ValueTemplate.parse(text)
        #expect(template.segments == segments)
        #expect(try ValueTemplate.parse(template.description) == template, "description is descriptor syntax")
    }

    @Test(arguments: [
        ("{unclosed", ValueTemplate.ParseError.unclosed),
        ("close}", .unopened),
        ("{}", .invalidName("")),
        ("{1x}", .invalidName("1x")),
        ("{a b}", .invalidName("a b")),
        ("{a ?? }", .invalidName("a ?? ")),
        ("{a..b}", .invalidName("a..b")),
    ])
    func refusesInvalidSyntax(text: String, error: ValueTemplate.ParseError) {
        #expect(throws: error) { try ValueTemplate.parse(text) }
    }

    @Test func referencesAndVariables() throws {
        let template = try ValueTemplate.parse("{a}/{b ?? a}/{c}")
        #expect(template.variables == ["a", "b", "c"])
        #expect(template.references == [["a"], ["b", "a"], ["c"]])
        #expect(template.soleVariable == nil)
        #expect(try ValueTemplate.parse("{a}").soleVariable == "a")
        #expect(try ValueTemplate.parse("{a ?? b}").soleVariable == nil)
    }

    /// Rendering never parses: a literal segment holding braces is sent as it is.
    @Test func renderingUsesTheSegmentsAsTheyAre() {
        let template = ValueTemplate(segments: [.literal("{x}/"), .firstOf(["missing", "y"]), .variable("x")])
        let values = ["x": "1", "y": "2"]
        #expect(template.render { values[$0] } == "{x}/21")
        #expect(template.render { $0 == "x" ? "1" : nil } == nil)
        #expect(template.description == "{{x}}/{missing ?? y}{x}")
    }

    /// The string-literal form is for specs written by hand; invalid syntax stays one literal.
    @Test func handWrittenLiteralsParseLeniently() {
        let parsed: ValueTemplate = "{base}/token"
        #expect(parsed.segments == [.variable("base"), .literal("/token")])
        #expect(ValueTemplate("{unclosed").segments == [.literal("{unclosed")])
        #expect(ValueTemplate("").segments.isEmpty)
    }

    @Test func variableNames() {
        for valid in ["a", "a1", "_a", "a.b", "discovered.token_endpoint", "A_B.c9"] {
            #expect(ValueTemplate.isValidVariableName(valid), "\(valid)")
        }
        for invalid in ["", "1a", "a.", ".a", "a..b", "a-b", "é", "a.1b", "a b"] {
            #expect(!ValueTemplate.isValidVariableName(invalid), "\(invalid)")
        }
    }

    /// The built-in error table is held once, and its kinds are spelled as the descriptor spells kinds.
    @Test func builtInCodesAreSnakeCaseAndUnique() {
        let codes = BuiltInErrorCode.descriptorSpellings
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "_" } })
        #expect(BuiltInErrorCode.loginCancelled.kind == .cancelled)
        #expect(BuiltInErrorCode.unknown.kind == .invalidResponse)
        #expect(BuiltInErrorCode.allCases.allSatisfy { !$0.meaning.isEmpty })
    }
}
