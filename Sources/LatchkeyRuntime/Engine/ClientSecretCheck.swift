import LatchkeyTokens
import LatchkeyVocabulary

/// Refuses configurations that lack a client secret a flow cannot do without, before any request or browser.
enum ClientSecretCheck {
    /// Whether the configuration carries a secret (a value other than whitespace).
    static func hasSecret(_ configuration: ProviderConfiguration) -> Bool {
        !(configuration.clientSecret ?? "").allSatisfy(\.isWhitespace)
    }

    /// Checked when a client is created: a provider whose descriptor declares `clientSecret.required`.
    /// - Throws: `invalid_configuration` naming the missing `clientSecret` and the descriptor's reason.
    static func checkRequired(provider: ProviderSpec, configuration: ProviderConfiguration) throws(AuthError) {
        guard let requirement = provider.clientSecret, !hasSecret(configuration) else { return }
        var message =
            "\(provider.displayName) needs a client secret: pass clientSecret (from server-side configuration, "
            + "never shipped in an app)."
        if !requirement.reason.isEmpty { message += " " + requirement.reason }
        throw AuthError(.invalidConfiguration, message, provider: provider.name)
    }

    /// Checked when a flow starts: the flow's later requests authenticate the client with `basic` or `post`,
    /// which cannot be sent without a secret, so the flow would fail only after the user consented.
    /// - Parameters:
    ///   - requestNames: The requests the flow sends after the user acts (a code exchange, a device-code token
    ///     request).
    ///   - flow: The flow's name for the message (`Browser sign-in`).
    /// - Throws: `invalid_configuration` naming the request and the missing `clientSecret`.
    static func checkFlow(
        _ requestNames: [String], flow: String, provider: ProviderSpec, configuration: ProviderConfiguration
    ) throws(AuthError) {
        guard !hasSecret(configuration) else { return }
        for name in requestNames {
            guard let method = provider.requests[name]?.clientAuthentication, method == .basic || method == .post
            else { continue }
            throw AuthError(
                .invalidConfiguration,
                "\(flow) with \(provider.displayName) needs a client secret: its request '\(name)' authenticates "
                    + "the client (clientAuthentication \(method.rawValue)). Pass clientSecret (server-side tools "
                    + "only), or use a flow that needs none.",
                provider: provider.name)
        }
    }
}
