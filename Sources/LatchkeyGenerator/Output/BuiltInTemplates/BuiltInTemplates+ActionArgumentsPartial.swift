// swift-format-ignore-file
// Written by scripts/embed-templates.sh from Templates/. Do not edit by hand.

extension BuiltInTemplates {
    /// `Templates/_ActionArguments.swift.template`.
    static let partialActionArguments = #"""
{{! The arguments dictionary of an action method, filled from its parameters. }}
{{#each parameters}}
{{#if isOptional}}
        if let {{label | identifier}} { arguments[{{name | string}}] = {{case | code}}({{label | identifier}}{{rawValue | code}}) }
{{else}}
        arguments[{{name | string}}] = {{case | code}}({{label | identifier}}{{rawValue | code}})
{{/if}}
{{/each}}

"""#
}
