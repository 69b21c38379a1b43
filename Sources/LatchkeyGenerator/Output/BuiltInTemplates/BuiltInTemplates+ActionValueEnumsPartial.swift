// swift-format-ignore-file
// Written by scripts/embed-templates.sh from Templates/. Do not edit by hand.

extension BuiltInTemplates {
    /// `Templates/_ActionValueEnums.swift.template`.
    static let partialActionValueEnums = #"""
{{! The enums of an action's parameters that take listed values (the line breaks of a sub-client's doc differ). }}
{{#each parameters}}
{{#if hasValues}}

{{#if isSubClient}}
    /// The values of the `{{label | doc}}` parameter of `{{method | doc}}` (the `{{name | doc}}` parameter of
    /// the descriptor's `{{actionName | doc}}` action); each raw value is the string sent on the wire.
{{else}}
    /// The values of the `{{label | doc}}` parameter of `{{method | doc}}` (the `{{name | doc}}` parameter of the
    /// descriptor's `{{actionName | doc}}` action); each raw value is the string sent on the wire.
{{/if}}
{{> ValueEnum}}
{{/if}}
{{/each}}

"""#
}
