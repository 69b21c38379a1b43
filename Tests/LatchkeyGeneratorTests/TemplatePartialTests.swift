import Foundation
import LatchkeyDescriptor
import LatchkeyGenerator
import Testing

/// `{{> Name}}` includes the partial `_Name.swift.template`: its lines replace the include's line, indented as
/// the tag is, and render with the values at the include. Errors name the file and line.
@Suite struct TemplatePartialTests {
    /// The syntax error a template throws, or `nil` when it parses.
    private func syntaxError(_ source: String, partials: [String: String] = [:]) -> (String, Int, String)? {
        do {
            _ = try Template(source: source, name: "t", partials: partials)
            return nil
        } catch {
            guard case .syntax(let template, let line, let message) = error else { return nil }
            return (template, line, message)
        }
    }

    @Test func partialRendersWithTheValuesAtItsIncludeAndItsIndentation() throws {
        let template = try Template(
            source: "struct S {\n{{#each items}}\n    {{> Member}}\n{{/each}}\n}",
            name: "t",
            partials: [
                "_Member.swift.template": "/// {{summary | doc}}\nlet {{name | identifier}} = {{name | string}}\n"
            ])
        let context = TemplateContext([
            "items": .list([
                TemplateContext(["name": .text("class"), "summary": .text("one\ntwo")]),
                TemplateContext(["name": .text("b\"c"), "summary": .text("three")]),
            ])
        ])
        // The escapings are the partial's own; a doc comment continues at the include's indentation.
        #expect(
            try template.render(context).text
                == "struct S {\n    /// one\n    /// two\n    let `class` = \"class\"\n    /// three\n    let b_c = \"b\\\"c\"\n}"
        )
    }

    @Test func nestedPartialsAddTheirIndentation() throws {
        let partials = [
            "_Outer.swift.template": "{{! a comment line is removed }}\nouter {{name | identifier}}\n    {{> Inner}}\n",
            "_Inner.swift.template": "{{#if flag}}\ninner {{name | string}}\n\ninner end\n{{/if}}\n",
        ]
        let template = try Template(source: "begin\n  {{> Outer}}\nend", name: "t", partials: partials)
        let output = try template.render(TemplateContext(["name": .text("x"), "flag": .bool(true)])).text
        // The blank line of the partial stays blank (no trailing spaces).
        #expect(output == "begin\n  outer x\n      inner \"x\"\n\n      inner end\nend")
    }

    @Test func partialWithoutFinalLineBreakEndsItsLineAndEmptyPartialAddsNone() throws {
        let partials = ["_A.swift.template": "a", "_Empty.swift.template": ""]
        let template = try Template(source: "{{> A}}\n{{> Empty}}\nb\n", name: "t", partials: partials)
        #expect(try template.render(TemplateContext()).text == "a\nb\n")
    }

    @Test func unknownPartialIsALocatedError() throws {
        let error = try #require(syntaxError("line one\n{{#if x}}\n  {{> Missing}}\n{{/if}}"))
        #expect(error.0 == "t" && error.1 == 3)
        #expect(error.2.contains("\"Missing\"") && error.2.contains("_Missing.swift.template"))
        // Inside a partial, the error is at the partial's own line.
        let nested = try #require(syntaxError("{{> A}}", partials: ["_A.swift.template": "a\n{{> Gone}}\n"]))
        #expect(nested.0 == "_A.swift.template" && nested.1 == 2 && nested.2.contains("\"Gone\""))
    }

    @Test func includeCycleIsAnErrorNotAHang() throws {
        let selfInclude = try #require(syntaxError("{{> A}}", partials: ["_A.swift.template": "a\n{{> A}}\n"]))
        #expect(selfInclude.0 == "_A.swift.template" && selfInclude.1 == 2)
        #expect(selfInclude.2.contains("includes itself"))
        let partials = [
            "_A.swift.template": "{{> B}}\n", "_B.swift.template": "b\n{{> C}}\n", "_C.swift.template": "{{> A}}\n",
        ]
        let cycle = try #require(syntaxError("x\n{{> A}}", partials: partials))
        #expect(cycle.0 == "_C.swift.template" && cycle.1 == 1)
        #expect(
            cycle.2.contains("_A.swift.template → _B.swift.template → _C.swift.template → _A.swift.template"))
    }

    @Test func deepNestingAndFanOutAreBounded() throws {
        // A chain of 40 distinct partials: no cycle, but deeper than the bound.
        var chain: [String: String] = [:]
        for level in 0..<40 { chain["_P\(level).swift.template"] = "{{> P\(level + 1)}}\n" }
        chain["_P40.swift.template"] = "end\n"
        let deep = try #require(syntaxError("{{> P0}}", partials: chain))
        #expect(deep.2.contains("nest more than"))
        // Each level includes the next one four times: 4^12 includes without the bound.
        var fan: [String: String] = [:]
        for level in 0..<12 { fan["_F\(level).swift.template"] = String(repeating: "{{> F\(level + 1)}}\n", count: 4) }
        fan["_F12.swift.template"] = "leaf\n"
        let wide = try #require(syntaxError("{{> F0}}", partials: fan))
        #expect(wide.2.contains("partial includes"))
    }

    @Test func malformedIncludeIsALocatedError() throws {
        let partials = ["_A.swift.template": "a\n"]
        let cases = [
            ("ok\n{{> }}", "malformed partial include"), ("ok\n{{> ../A}}", "malformed partial include"),
            ("ok\n{{> A B}}", "malformed partial include"), ("ok\nlet x = {{> A}}", "must stand on a line of its own"),
            ("ok\n{{> A}} trailing", "must stand on a line of its own"),
        ]
        for (source, message) in cases {
            let error = try #require(syntaxError(source, partials: partials), "\(source)")
            #expect(error.0 == "t" && error.1 == 2 && error.2.contains(message), "\(source): \(error.2)")
        }
        // A placeholder in a partial still must name its escaping.
        let unescaped = try #require(syntaxError("{{> A}}", partials: ["_A.swift.template": "\nlet x = {{name}}\n"]))
        #expect(unescaped.0 == "_A.swift.template" && unescaped.1 == 2 && unescaped.2.contains("names no escaping"))
    }

    @Test func renderErrorInAPartialNamesTheInclude() throws {
        let template = try Template(
            source: "a\n{{> A}}", name: "t", partials: ["_A.swift.template": "x\nlet y = {{missing | string}}\n"])
        #expect(throws: TemplateError.render("_A.swift.template:2: no value named \"missing\" (included from t:2)")) {
            try template.render(TemplateContext())
        }
        // Descriptor text is refused as code in a partial as anywhere else.
        let code = try Template(source: "{{> B}}", name: "t", partials: ["_B.swift.template": "{{text | code}}\n"])
        #expect(throws: TemplateError.self) { try code.render(TemplateContext(["text": .text("evil()")])) }
    }

    @Test func templatesDirectoryTakesItsPartialsAndTheBuiltInOnesItLacks() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("partials-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = try PackageRoot.read("Templates/\(Generator.clientTemplateName)")
        try client.write(
            to: directory.appendingPathComponent(Generator.clientTemplateName), atomically: true, encoding: .utf8)
        let descriptor = try #require(
            DescriptorLoader.load(path: PackageRoot.path("Descriptors/supabase.json")).descriptor)

        // With only the client template, the built-in partials render the committed client.
        let builtInPartials = try Generator(templatesDirectory: directory.path).render(
            descriptor, fileName: "supabase.json")
        #expect(builtInPartials == (try PackageRoot.read("Generated/supabase.swift")))

        // One partial of the directory's own replaces the built-in one, in the client and in each sub-client.
        try "{{#each actions}}\n    // action {{name | doc}}\n{{/each}}\n".write(
            to: directory.appendingPathComponent("_ActionMethods.swift.template"), atomically: true, encoding: .utf8)
        let overridden = try Generator(templatesDirectory: directory.path).render(descriptor, fileName: "supabase.json")
        #expect(overridden.contains("\n    // action signInAnonymously\n"))
        #expect(overridden.contains("\n        // action mfaVerify\n"))
        #expect(!overridden.contains("client.perform(action: \"mfaVerify\""))
        // The partials it does not replace are still the built-in ones.
        #expect(overridden.contains("        public func getAuthenticatorAssuranceLevel()"))
    }
}
