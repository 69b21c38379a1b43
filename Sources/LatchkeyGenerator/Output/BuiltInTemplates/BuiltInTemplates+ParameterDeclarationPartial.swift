// swift-format-ignore-file
// Written by scripts/embed-templates.sh from Templates/. Do not edit by hand.

extension BuiltInTemplates {
    /// `Templates/_ParameterDeclaration.swift.template`.
    static let partialParameterDeclaration = #"""
{{! One parameter of a generated initializer or method, followed by a comma: `= nil` when it is optional. }}
{{#if isOptional}}
        {{label | identifier}}: {{swiftType | code}} = nil,
{{else}}
        {{label | identifier}}: {{swiftType | code}},
{{/if}}

"""#
}
