// swift-format-ignore-file
// Written by scripts/embed-templates.sh from Templates/. Do not edit by hand.

extension BuiltInTemplates {
    /// `Templates/_AssuranceLevel.swift.template`.
    static let partialAssuranceLevel = #"""
{{! The assurance-level method of a client or sub-client whose descriptor gives it the assurance claims. }}
{{#if hasAssurance}}

    /// The session's authenticator assurance level: the current level and the methods used, read from the
    /// access token only once it is verified (`getClaims()`), and the next level the user can reach (the
    /// elevated level once a factor is verified). Signed out, every value is empty and nothing is sent.
    /// - Returns: The levels and the authentication methods used.
    /// - Throws: `AuthError`: `invalid_token` for a token that fails verification; the provider's errors.
    public func getAuthenticatorAssuranceLevel() async throws(LatchkeyRuntime.AuthError)
        -> LatchkeyRuntime.AssuranceLevel
    {
        try await client.assuranceLevel()
    }
{{/if}}

"""#
}
