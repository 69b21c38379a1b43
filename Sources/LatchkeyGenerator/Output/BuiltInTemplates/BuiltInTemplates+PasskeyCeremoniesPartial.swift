// swift-format-ignore-file
// Written by scripts/embed-templates.sh from Templates/. Do not edit by hand.

extension BuiltInTemplates {
    /// `Templates/_PasskeyCeremonies.swift.template`.
    static let partialPasskeyCeremonies = #"""
{{! The passkey-ceremony action methods, in extensions of the client and its sub-clients, with their Apple overloads. }}
{{#each ceremonyExtensions}}

extension {{extendedType | code}} {
{{#each actions}}
{{> ActionValueEnums}}

    /// {{summary | doc}}
    ///
    /// The WebAuthn ceremony between its requests runs with `authenticator`, from the options the server answers
    /// (their relying party); on Apple platforms the `presentationAnchor:` overload runs the platform's passkey
    /// sheet.
    /// - Parameters:
{{#each parameters}}
    ///   - {{label | doc}}: {{summary | doc}}
{{/each}}
    ///   - authenticator: Makes the passkey credential from the server's options.
    /// - Returns: What the last request answered: a session, a user, a document or nothing.
    /// - Throws: `AuthError`; `validation_failed` before any request when an argument breaks its rules; the
    ///   authenticator's error (`login_cancelled` when the user closes the sheet), after which nothing is sent.
    @discardableResult
    public func {{method | identifier}}(
{{#each parameters}}
{{> ParameterDeclaration}}
{{/each}}
        authenticator: some LatchkeyRuntime.PasskeyAuthenticator
    ) async throws(LatchkeyRuntime.AuthError) -> LatchkeyRuntime.ActionResult {
{{#if parameters}}
        var arguments: [Swift.String: LatchkeyRuntime.ActionArgument] = [:]
{{> ActionArguments}}
        return try await client.perform(
            action: {{name | string}}, arguments: arguments, passkeyAuthenticator: authenticator)
{{else}}
        try await client.perform(action: {{name | string}}, passkeyAuthenticator: authenticator)
{{/if}}
    }
{{/each}}
}
{{/each}}
{{#if hasPasskeyCeremony}}

#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
{{#each ceremonyExtensions}}
{{#unless first}}

{{/unless}}
    extension {{extendedType | code}} {
{{#each actions}}

        /// {{summary | doc}}
        ///
        /// The WebAuthn ceremony runs with the platform's passkeys (`PlatformPasskeyAuthenticator`), its sheet
        /// presented from `presentationAnchor`; the relying party is the one in the server's options.
        /// - Parameters:
{{#each parameters}}
        ///   - {{label | doc}}: {{summary | doc}}
{{/each}}
        ///   - presentationAnchor: The window the passkey sheet is presented from.
        /// - Returns: What the last request answered: a session, a user, a document or nothing.
        /// - Throws: `AuthError`; `validation_failed` before any request when an argument breaks its rules;
        ///   `login_cancelled` when the user closes the sheet, after which nothing is sent.
        @MainActor
        @discardableResult
        public func {{method | identifier}}(
{{#each parameters}}
    {{> ParameterDeclaration}}
{{/each}}
            presentationAnchor: AuthenticationServices.ASPresentationAnchor
        ) async throws(LatchkeyRuntime.AuthError) -> LatchkeyRuntime.ActionResult {
            try await {{method | identifier}}(
{{#each parameters}}
                {{label | identifier}}: {{label | identifier}},
{{/each}}
                authenticator: LatchkeyRuntime.PlatformPasskeyAuthenticator(anchor: { presentationAnchor }))
        }
{{/each}}
    }
{{/each}}
#endif
{{/if}}

"""#
}
