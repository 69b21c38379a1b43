// swift-format-ignore-file
// Written by scripts/embed-templates.sh from Templates/. Do not edit by hand.

extension BuiltInTemplates {
    /// `Templates/_BrowserSignIn.swift.template`.
    static let partialBrowserSignIn = #"""
{{! The typed browser sign-in of a client whose authorization code flow declares parameters. }}
{{#if hasBrowser}}
{{#if browserParameters}}
{{#each browserParameters}}
{{#if hasValues}}

    /// The values of the `{{label | doc}}` argument of a browser sign-in (the descriptor's
    /// `flows.authorizationCode.parameters.{{name | doc}}`); each raw value is the string sent on the wire.
{{> ValueEnum}}
{{/if}}
{{/each}}

    /// Prepares a browser sign-in with typed arguments, without sending anything: makes the PKCE verifier,
    /// keeps the pending sign-in in the store, and builds the authorization URL (supabase-swift's
    /// `getOAuthSignInURL`).
    /// - Parameters:
{{#each browserParameters}}
    ///   - {{label | doc}}: {{summary | doc}}
{{/each}}
    ///   - scopes: The scopes to request (default: the descriptor's).
    ///   - redirectTo: Where the browser returns (default: the configured redirect URI).
    ///   - queryParams: More authorization query parameters; none may be one the typed arguments or the
    ///     sign-in set.
    /// - Returns: The request; open its URL, then pass the callback to `handleCallback(_:)`.
    /// - Throws: `validation_failed` for a query parameter a typed argument sets; `invalid_configuration` for
    ///   one the sign-in sets, or a redirect URI the descriptor does not allow. Nothing is sent either way.
    public func authorizationURL(
{{#each browserParameters}}
        {{label | identifier}}: {{swiftType | code}},
{{/each}}
        scopes: [Swift.String]? = nil,
        redirectTo: Foundation.URL? = nil,
        queryParams: [Swift.String: Swift.String] = [:]
    ) async throws(LatchkeyRuntime.AuthError) -> LatchkeyRuntime.AuthorizationRequest {
        var arguments: [Swift.String: Swift.String] = [:]
{{#each browserParameters}}
        arguments[{{name | string}}] = {{label | identifier}}{{rawValue | code}}
{{/each}}
        return try await client.prepareAuthorization(
            arguments: arguments, redirectURI: redirectTo, scopes: scopes, queryParameters: queryParams)
    }

    /// Signs in through a browser with typed arguments (supabase-swift's `signInWithOAuth`): as
    /// `authorizationURL(…)`, then the authenticator shows the page and the callback is exchanged.
    /// - Parameters:
{{#each browserParameters}}
    ///   - {{label | doc}}: {{summary | doc}}
{{/each}}
    ///   - scopes: The scopes to request (default: the descriptor's).
    ///   - redirectTo: Where the browser returns (default: the configured redirect URI).
    ///   - queryParams: More authorization query parameters; none may be one the typed arguments or the
    ///     sign-in set.
    ///   - prefersEphemeralSession: Whether the browser should not share cookies with other sign-ins.
    ///   - authenticator: Shows the authorization page and returns the callback URL.
    /// - Returns: The new session.
    /// - Throws: The errors of `authorizationURL(…)`; `login_cancelled` when the user closes the browser or
    ///   denies access; the exchange's errors.
    @discardableResult
    public func signInWithBrowser(
{{#each browserParameters}}
        {{label | identifier}}: {{swiftType | code}},
{{/each}}
        scopes: [Swift.String]? = nil,
        redirectTo: Foundation.URL? = nil,
        queryParams: [Swift.String: Swift.String] = [:],
        prefersEphemeralSession: Swift.Bool = false,
        using authenticator: any LatchkeyRuntime.WebAuthenticator
    ) async throws(LatchkeyRuntime.AuthError) -> LatchkeyRuntime.Session {
        var arguments: [Swift.String: Swift.String] = [:]
{{#each browserParameters}}
        arguments[{{name | string}}] = {{label | identifier}}{{rawValue | code}}
{{/each}}
        return try await client.signInWithBrowser(
            arguments: arguments, redirectURI: redirectTo, scopes: scopes, queryParameters: queryParams,
            prefersEphemeralSession: prefersEphemeralSession, using: authenticator)
    }
{{/if}}
{{/if}}

"""#
}
