import Foundation

extension ActionGrant {
    /// Where the emailed link of an action with a `pkce` option (``ActionSpec/linkPKCE``) returns: the action's
    /// URL argument, else the first configured redirect URI among the option's `redirects` (the action's and its
    /// request's names when it lists none); `nil` when the action has no such option, the option's `when`
    /// arguments are all absent, the provider has no code flow, or the redirect is not one the app handles (a
    /// configured one, or another URL of a configured custom scheme).
    /// - Parameters:
    ///   - configuration: The app's redirect URIs.
    ///   - hasCodeFlow: Whether the provider has an authorization-code flow (whose exchange completes the link).
    func linkRedirect(configuration: ProviderConfiguration, hasCodeFlow: Bool) -> URL? {
        guard let pkce = action.linkPKCE, hasCodeFlow,
            pkce.when.isEmpty || pkce.when.contains(where: { arguments[$0] != nil })
        else { return nil }
        var redirect = givenRedirect
        if redirect == nil {
            let names = pkce.redirects.isEmpty ? [action.name, action.request] : pkce.redirects
            redirect =
                names.lazy.compactMap { name in
                    name == ImplicitSessionSpec.defaultRedirect
                        ? configuration.redirectURI : configuration.redirectURIs[name]
                }.first
        }
        let known = [configuration.redirectURI].compactMap { $0 } + Array(configuration.redirectURIs.values)
        guard let redirect,
            known.contains(where: {
                RedirectURI.matches(redirect, $0)
                    || (RedirectURI.kind(of: $0) == .customScheme && RedirectURI.kind(of: redirect) == .customScheme
                        && $0.scheme?.lowercased() == redirect.scheme?.lowercased())
            })
        else { return nil }
        return redirect
    }

    /// Adds a link's PKCE challenge (RFC 7636) and redirect URI to the request: `{code_challenge}`,
    /// `{code_challenge_method}` (the option's method), `{redirect_uri}`, and the action's first URL parameter
    /// when the caller gave none (the redirect is then the configured one).
    /// - Parameters:
    ///   - verifier: The PKCE verifier the link's code is exchanged with.
    ///   - redirect: The redirect URI (``linkRedirect(configuration:hasCodeFlow:)``).
    mutating func addLinkChallenge(verifier: String, redirect: URL) {
        guard let pkce = action.linkPKCE else { return }
        if givenRedirect == nil, let parameter = action.parameters.first(where: { $0.type == .url }) {
            variables[parameter.name] = .string(redirect.absoluteString)
        }
        variables["code_challenge"] = .string(PKCE.challenge(for: verifier))
        variables["code_challenge_method"] = .string(pkce.method)
        variables["redirect_uri"] = .string(redirect.absoluteString)
    }

    /// The first URL argument the caller gave for one of the action's URL parameters.
    private var givenRedirect: URL? {
        for parameter in action.parameters where parameter.type == .url {
            if case .url(let url)? = arguments[parameter.name] { return url }
        }
        return nil
    }
}
