// swift-format-ignore-file
// Written by scripts/embed-templates.sh from Templates/. Do not edit by hand.

extension BuiltInTemplates {
    /// `Templates/_ValueEnum.swift.template`.
    static let partialValueEnum = #"""
{{! An enum of the values a parameter takes, each raw value the string sent on the wire. }}
    public enum {{enumName | identifier}}: Swift.String, Swift.Sendable, Swift.CaseIterable {
{{#each values}}
        /// `{{value | doc}}`.
        case {{caseName | identifier}} = {{value | string}}
{{/each}}
    }

"""#
}
