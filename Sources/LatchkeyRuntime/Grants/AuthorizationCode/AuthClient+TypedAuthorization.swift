import Foundation
import LatchkeyTokens

extension AuthClient {
    /// Prepares a browser sign-in whose descriptor declares typed arguments (`flows.authorizationCode.parameters`,
    /// Supabase's `provider`): each fills the authorize query's variable of its name; the query parameters join
    /// them. See ``prepareAuthorization(redirectURI:scopes:prompt:loginHint:maxAge:additionalParameters:)``.
    /// - Parameters:
    ///   - arguments: The typed arguments' wire values, by parameter name.
    ///   - redirectURI: The redirect URI (default: the configured one).
    ///   - scopes: The scopes (default: the flow's).
    ///   - queryParameters: More query parameters (supabase-swift's `queryParams`).
    /// - Returns: The request; open its URL.
    /// - Throws: `validation_failed` for a query parameter that a typed argument sets (nothing is sent); the
    ///   errors of ``prepareAuthorization(redirectURI:scopes:prompt:loginHint:maxAge:additionalParameters:)``.
    public func prepareAuthorization(
        arguments: [String: String], redirectURI: URL?, scopes: [String]?, queryParameters: [String: String]
    ) async throws(AuthError) -> AuthorizationRequest {
        try await prepareAuthorization(
            redirectURI: redirectURI, scopes: scopes,
            additionalParameters: try merged(arguments, queryParameters))
    }

    /// ``signInWithBrowser(using:redirectURI:scopes:prefersEphemeralSession:additionalParameters:)`` with typed
    /// arguments, as ``prepareAuthorization(arguments:redirectURI:scopes:queryParameters:)`` takes them.
    /// - Parameters:
    ///   - arguments: The typed arguments' wire values, by parameter name.
    ///   - redirectURI: The redirect URI (default: the configured one).
    ///   - scopes: The scopes (default: the flow's).
    ///   - queryParameters: More query parameters.
    ///   - prefersEphemeralSession: Whether the browser should not share cookies.
    ///   - authenticator: Shows the authorization URL.
    /// - Returns: The new session.
    /// - Throws: `validation_failed` for a query parameter that a typed argument sets (nothing is sent); the
    ///   errors of a browser sign-in.
    @discardableResult
    public func signInWithBrowser(
        arguments: [String: String], redirectURI: URL?, scopes: [String]?, queryParameters: [String: String],
        prefersEphemeralSession: Bool, using authenticator: any WebAuthenticator
    ) async throws(AuthError) -> Session {
        try await signInWithBrowser(
            using: authenticator, redirectURI: redirectURI, scopes: scopes,
            prefersEphemeralSession: prefersEphemeralSession,
            additionalParameters: try merged(arguments, queryParameters))
    }

    private func merged(
        _ arguments: [String: String], _ queryParameters: [String: String]
    ) throws(AuthError) -> [String: String] {
        for name in queryParameters.keys.sorted() where arguments[name] != nil {
            throw failure(.validationFailed, "The query parameter '\(name)' is set by the argument of that name.")
        }
        return arguments.merging(queryParameters) { typed, _ in typed }
    }
}
