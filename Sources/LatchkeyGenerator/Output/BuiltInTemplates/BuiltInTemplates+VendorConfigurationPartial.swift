// swift-format-ignore-file
// Written by scripts/embed-templates.sh from Templates/. Do not edit by hand.

extension BuiltInTemplates {
    /// `Templates/_VendorConfiguration.swift.template`.
    static let partialVendorConfiguration = #"""
{{! The vendor SDK's configuration type: in code, or from Info.plist (the environment on Linux). }}
/// How {{authType | doc}} is configured: in code, or from the app's Info.plist (the environment on Linux).
public struct {{configType | identifier}}: Swift.Sendable, Swift.Hashable {
    /// {{primaryInputSummary | doc}}
    public var {{primaryInputLabel | identifier}}: Swift.String
{{#each otherInputs}}
    /// {{summary | doc}}
    public var {{label | identifier}}: {{swiftType | code}}
{{/each}}
    /// Where the provider sends the browser back to; `nil`: the provider's default.
    public var redirectURI: Foundation.URL?

    /// Creates a configuration.
    /// - Parameters:
    ///   - {{primaryInputLabel | doc}}: {{primaryInputSummary | doc}}
{{#each otherInputs}}
    ///   - {{label | doc}}: {{summary | doc}}
{{/each}}
    ///   - redirectURI: Where the provider sends the browser back to; `nil`: the provider's default.
    public init(
        {{primaryInputLabel | identifier}}: Swift.String,
{{#each otherInputs}}
        {{label | identifier}}: {{swiftType | code}} = nil,
{{/each}}
        redirectURI: Foundation.URL? = nil
    ) {
        self.{{primaryInputLabel | identifier}} = {{primaryInputLabel | identifier}}
{{#each otherInputs}}
        self.{{label | identifier}} = {{label | identifier}}
{{/each}}
        self.redirectURI = redirectURI
    }

    /// Reads the configuration from the app's Info.plist: {{infoPlistKeys | doc}}. On Linux, which has no
    /// Info.plist, from the environment variables of the same names.
    /// - Returns: The configuration.
    /// - Throws: `{{errorType | doc}}` `invalid_configuration` when `{{primaryInputEnvironment | doc}}` is missing.
    public static func fromInfoPlist() throws -> {{configType | identifier}} {
        try fromInfoPlist(lookup: LatchkeyRuntime.VendorConfiguration.infoPlistValue)
    }

    /// Reads the configuration through `lookup` (a key's value, or `nil`) under the keys of ``fromInfoPlist()``.
    /// - Parameter lookup: Reads a key.
    /// - Returns: The configuration.
    /// - Throws: `{{errorType | doc}}` `invalid_configuration` when `{{primaryInputEnvironment | doc}}` is missing.
    public static func fromInfoPlist(lookup: (Swift.String) -> Swift.String?) throws -> {{configType | identifier}} {
        do throws(LatchkeyRuntime.AuthError) {
            var config = {{configType | identifier}}(
                {{primaryInputLabel | identifier}}: try LatchkeyRuntime.VendorConfiguration.required({{primaryInputEnvironment | string}}, lookup))
{{#each otherInputs}}
{{#if environment}}
{{#if isURL}}
            config.{{label | identifier}} = try LatchkeyRuntime.VendorConfiguration.url({{environment | string}}, lookup)
{{else}}
            config.{{label | identifier}} = lookup({{environment | string}})
{{/if}}
{{/if}}
{{/each}}
            return config
        } catch {
            throw {{errorType | identifier}}(error)
        }
    }

    /// The runtime's configuration.
    var providerConfiguration: LatchkeyRuntime.ProviderConfiguration {
        var values: [Swift.String: Swift.String] = [:]
        values[{{primaryInput | string}}] = {{primaryInputLabel | identifier}}
{{#each otherInputs}}
{{#if isURL}}
        values[{{name | string}}] = {{label | identifier}}?.absoluteString
{{else}}
        values[{{name | string}}] = {{label | identifier}}
{{/if}}
{{/each}}
        return LatchkeyRuntime.ProviderConfiguration(values: values, redirectURI: redirectURI, redirectURIs: [:])
    }
}

"""#
}
