import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// Checks a ``ProviderConfiguration`` against the provider's inputs before any request is sent.
enum ConfigurationValidator {
    /// Resolves every input (app value, then environment, then default), trims it, and checks it.
    /// - Returns: The input values by name.
    /// - Throws: `invalid_configuration` for a missing required input, a URL that is not https (or
    ///   loopback http), a value outside the input's allowed values, or a redirect URI of a kind the provider
    ///   does not accept; a rejection's own code
    ///   (`secret_in_app` by default) for a value that must never ship in an app.
    static func resolve(
        provider: ProviderSpec, configuration: ProviderConfiguration, environment: (String) -> String?
    ) throws(AuthError) -> [String: String] {
        var resolved: [String: String] = [:]
        for input in provider.inputs {
            let candidates = [
                configuration.values[input.name], input.environmentKey.flatMap(environment), input.defaultValue,
            ]
            var value =
                candidates.lazy.compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }
                .first { !$0.isEmpty } ?? ""
            if input.trimsTrailingSlash { while value.hasSuffix("/") { value.removeLast() } }
            guard !value.isEmpty else {
                if input.isRequired {
                    throw AuthError(
                        .invalidConfiguration, "The input '\(input.name)' is required.", provider: provider.name)
                }
                continue
            }
            try checkRejections(input, value, provider: provider.name)
            if !input.allowedValues.isEmpty, !input.allowedValues.contains(value) {
                throw AuthError(
                    .invalidConfiguration,
                    "The input '\(input.name)' must be one of: \(input.allowedValues.joined(separator: ", ")).",
                    provider: provider.name)
            }
            try checkRequirement(input, value, provider: provider.name)
            if input.kind == .url {
                guard let url = URL(string: value), RedirectURI.isAllowedEndpoint(url), url.query == nil,
                    url.fragment == nil
                else {
                    throw AuthError(
                        .invalidConfiguration,
                        "The input '\(input.name)' must be an https URL (or http on a loopback host).",
                        provider: provider.name)
                }
            }
            resolved[input.name] = value
        }
        let redirects = [configuration.redirectURI].compactMap { $0 } + configuration.redirectURIs.values
        for redirect in redirects { try checkRedirect(redirect, provider: provider) }
        return resolved
    }

    /// Checks that a redirect URI is of a kind the provider accepts.
    static func checkRedirect(_ url: URL, provider: ProviderSpec) throws(AuthError) {
        guard let kind = RedirectURI.kind(of: url), provider.callback.allowedRedirectKinds.contains(kind) else {
            let allowed = provider.callback.allowedRedirectKinds.map(\.rawValue).joined(separator: ", ")
            throw AuthError(
                .invalidConfiguration, "The redirect URI \(url.absoluteString) is not allowed (allowed: \(allowed)).",
                provider: provider.name)
        }
    }

    /// Refuses a value that passes none of the input's required tests (a server-side client given a
    /// publishable key instead of a secret one); the message never quotes the value.
    private static func checkRequirement(_ input: InputSpec, _ value: String, provider: String) throws(AuthError) {
        guard let requirement = input.requirement else { return }
        let passes = requirement.anyOf.contains { test in
            switch test {
            case .prefix(let prefix): value.hasPrefix(prefix)
            case .jwtClaim(let name, let expected): JWTPayload.claims(of: value)?[name]?.string == expected
            }
        }
        if !passes {
            throw AuthError(
                AuthError.Code(requirement.code, kind: .misconfigured),
                "The input '\(input.name)' was refused: \(requirement.message)", provider: provider)
        }
    }

    private static func checkRejections(_ input: InputSpec, _ value: String, provider: String) throws(AuthError) {
        for rejection in input.rejections {
            let refused: Bool
            switch rejection.test {
            case .prefix(let prefix):
                refused = value.hasPrefix(prefix)
            case .jwtClaim(let name, let expected):
                refused = JWTPayload.claims(of: value)?[name]?.string == expected
            }
            if refused {
                throw AuthError(
                    AuthError.Code(rejection.code, kind: .misconfigured),
                    "The input '\(input.name)' was refused: \(rejection.message)", provider: provider)
            }
        }
    }
}
