// swift-format-ignore-file
// Written by scripts/embed-templates.sh from Templates/. Do not edit by hand.

extension BuiltInTemplates {
    /// `Templates/_ActionMethods.swift.template`.
    static let partialActionMethods = #"""
{{! The action methods of a client, or of a sub-client when included indented: each action's value enums and method. }}
{{#each actions}}
{{> ActionValueEnums}}

    /// {{summary | doc}}
{{#if parameters}}
    /// - Parameters:
{{#each parameters}}
    ///   - {{label | doc}}: {{summary | doc}}
{{/each}}
{{/if}}
    /// - Returns: What the provider answered: a session, a user, a document or nothing.
    /// - Throws: `AuthError`; `validation_failed` before any request when an argument breaks its rules.
    @discardableResult
{{#if parameters}}
    public func {{method | identifier}}(
{{#each parameters}}
{{#if isOptional}}
        {{label | identifier}}: {{swiftType | code}} = nil{{#unless last}},{{/unless}}
{{else}}
        {{label | identifier}}: {{swiftType | code}}{{#unless last}},{{/unless}}
{{/if}}
{{/each}}
    ) async throws(LatchkeyRuntime.AuthError) -> LatchkeyRuntime.ActionResult {
        var arguments: [Swift.String: LatchkeyRuntime.ActionArgument] = [:]
{{> ActionArguments}}
        return try await client.perform(action: {{name | string}}, arguments: arguments)
    }
{{else}}
{{#if wraps}}
    public func {{method | identifier}}() async throws(LatchkeyRuntime.AuthError)
        -> LatchkeyRuntime.ActionResult
    {
        try await client.perform(action: {{name | string}})
    }
{{else}}
    public func {{method | identifier}}() async throws(LatchkeyRuntime.AuthError) -> LatchkeyRuntime.ActionResult {
        try await client.perform(action: {{name | string}})
    }
{{/if}}
{{/if}}
{{/each}}

"""#
}
