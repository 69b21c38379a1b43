import LatchkeyDescriptor
import LatchkeyVocabulary

/// The spec literal's values: templates, JSON templates and named parameters.
extension SpecLiteral {
    /// A template as generated code holds it: its parsed segments, every string an escaped literal, so the
    /// runtime never parses descriptor syntax.
    /// A template of one segment is that segment's `.literal(...)` or `.variable(...)` (the template's own
    /// factories); any other is `.init(segments: [...])`.
    static func template(_ t: ValueTemplate) -> Expr {
        switch t.segments.first {
        case .literal(let text)? where t.segments.count == 1:
            RuntimeConstruct.literalTemplate.call(["text": .string(text)])
        case .variable(let name)? where t.segments.count == 1:
            RuntimeConstruct.variableTemplate.call(["name": .string(name)])
        default: RuntimeConstruct.segmentedTemplate.call(["segments": .array(t.segments.map(segment))])
        }
    }

    /// One segment of a template: `.literal("...")`, `.variable("name")` or `.firstOf(["a", "b"])`.
    static func segment(_ s: ValueTemplate.Segment) -> Expr {
        switch s {
        case .literal(let text): RuntimeConstruct.literalSegment.call(["text": .string(text)])
        case .variable(let name): RuntimeConstruct.variableSegment.call(["name": .string(name)])
        case .firstOf(let names): RuntimeConstruct.firstOfSegment.call(["names": .array(names.map(Expr.string))])
        }
    }

    static func value(_ v: Value) -> Expr {
        switch v {
        case .string(let t): RuntimeConstruct.jsonString.call(["template": template(t)])
        case .number(let lexeme): RuntimeConstruct.jsonNumber.call(["lexeme": .string(lexeme)])
        case .bool(let flag): RuntimeConstruct.jsonBool.call(["flag": .bool(flag)])
        case .null: RuntimeConstruct.jsonNull.call()
        case .array(let items): RuntimeConstruct.jsonArray.call(["items": .array(items.map(value))])
        case .object(let members):
            RuntimeConstruct.jsonObject.call([
                "members": .array(
                    members.map {
                        RuntimeConstruct.jsonMember.call(["name": .string($0.name), "value": value($0.value)])
                    })
            ])
        }
    }

    static func parameter(_ name: String, _ v: Value) -> Expr {
        RuntimeConstruct.parameterSpec.call(["name": .string(name), "value": value(v)])
    }

    static func parameters(_ list: [Named<Value>]) -> Expr { .array(list.map { parameter($0.name, $0.value) }) }

    /// A `[String: String]` literal with its keys sorted (deterministic output).
    static func stringDictionary(_ members: [Named<String>]) -> Expr {
        .dictionary(members.sorted { $0.name < $1.name }.map { (key: $0.name, value: .string($0.value)) })
    }
}

extension RuntimeConstruct {
    static let literalTemplate = RuntimeConstruct(
        "ValueTemplate", .member("literal"), [.unlabeled("text")], module: "LatchkeyVocabulary")
    static let variableTemplate = RuntimeConstruct(
        "ValueTemplate", .member("variable"), [.unlabeled("name")], module: "LatchkeyVocabulary")
    static let segmentedTemplate = RuntimeConstruct(
        "ValueTemplate", .initializer, [.always("segments")], module: "LatchkeyVocabulary")
    static let literalSegment = RuntimeConstruct(
        "ValueTemplate.Segment", .member("literal"), [.unlabeled("text")], module: "LatchkeyVocabulary")
    static let variableSegment = RuntimeConstruct(
        "ValueTemplate.Segment", .member("variable"), [.unlabeled("name")], module: "LatchkeyVocabulary")
    static let firstOfSegment = RuntimeConstruct(
        "ValueTemplate.Segment", .member("firstOf"), [.unlabeled("names")], module: "LatchkeyVocabulary")
    static let jsonString = RuntimeConstruct("JSONTemplate", .member("string"), [.unlabeled("template")])
    static let jsonNumber = RuntimeConstruct("JSONTemplate", .member("number"), [.unlabeled("lexeme")])
    static let jsonBool = RuntimeConstruct("JSONTemplate", .member("bool"), [.unlabeled("flag")])
    static let jsonNull = RuntimeConstruct("JSONTemplate", .bareMember("null"), [])
    static let jsonArray = RuntimeConstruct("JSONTemplate", .member("array"), [.unlabeled("items")])
    static let jsonObject = RuntimeConstruct("JSONTemplate", .member("object"), [.unlabeled("members")])
    static let jsonMember = RuntimeConstruct(
        "JSONTemplate.Member", .initializer, [.unlabeled("name"), .unlabeled("value")])
    static let parameterSpec = RuntimeConstruct(
        "ParameterSpec", .initializer, [.unlabeled("name"), .unlabeled("value")])
}
