import LatchkeyDescriptor

/// The Swift enum an input with `values` generates: one case per allowed value, the raw value the wire string.
extension ClientContext {
    static func inputEnum(_ i: Descriptor.Input) -> TemplateContext {
        let cases = i.values.map { value in
            TemplateContext(["caseName": .text(SwiftNames.lowerCamelCase(value)), "value": .text(value)])
        }
        return TemplateContext([
            "name": .text(i.name),
            "enumName": .text(SwiftNames.inputEnumName(i.name)),
            "summary": .text(i.summary ?? "The \(i.name) input."),
            "cases": .list(cases),
        ])
    }
}
