import Foundation
import LatchkeyTesting
import LatchkeyVocabulary
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// The runtime fills a template's segments as generated code holds them: it never parses descriptor syntax,
/// so a literal segment with braces is sent as it is, and a fallback takes its first alternative with a value.
@Suite("Engine: template segments in requests")
struct TemplateSegmentsRequestTests {
    private let scope = VariableScope(
        inputs: ["baseURL": "https://acme.example", "apiKey": "pk"], discovered: [:], derived: [])

    @Test("literal braces are sent as they are; a fallback takes its first alternative with a value")
    func segmentsAreFilledAsTheyAre() throws {
        let spec = RequestSpec(
            method: "POST",
            url: ValueTemplate(segments: [.variable("baseURL"), .literal("/token")]),
            encoding: .json,
            body: [
                ParameterSpec("shape", .string(.literal("{json}"))),
                ParameterSpec(
                    "value",
                    .string(ValueTemplate(segments: [.literal("{{"), .firstOf(["absent", "apiKey"]), .literal("}")]))),
            ])
        let request = try RequestBuilder(provider: AcmeSpec.make(), userAgent: nil)
            .build(spec, scope: scope)
        #expect(request.url.absoluteString == "https://acme.example/token")
        let body = try #require(
            try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: String])
        #expect(body == ["shape": "{json}", "value": "{{pk}"])
    }

    @Test("a fallback with no alternative that has a value names the missing reference")
    func fallbackWithoutAValue() throws {
        let spec = RequestSpec(
            method: "GET", url: ValueTemplate(segments: [.firstOf(["absent", "alsoAbsent"]), .literal("/x")]))
        let builder = RequestBuilder(provider: AcmeSpec.make(), userAgent: nil)
        #expect(throws: AuthError.self) { try builder.build(spec, scope: scope) }
    }
}
