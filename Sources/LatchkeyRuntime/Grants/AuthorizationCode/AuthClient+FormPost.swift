import Foundation
import LatchkeyTokens

extension AuthClient {
    /// The largest form body accepted as a `form_post` callback, in bytes.
    public static let maximumFormPostBytes = 64 * 1024

    /// Completes a browser sign-in whose provider POSTed the callback (`response_mode=form_post`, as Sign in
    /// with Apple does), for server-side code that received that POST.
    ///
    /// The body is the request's `application/x-www-form-urlencoded` content as received; it is checked
    /// exactly as ``handleCallback(_:)`` checks a callback URL (redirect URI, state, one use, errors), then
    /// the code is exchanged. A `user` member the descriptor declares (``CallbackSpec/user``) only fills
    /// in the name and email the ID token lacks.
    /// - Parameters:
    ///   - formBody: The POST body, e.g. `code=…&state=…&id_token=…&user=%7B…%7D`.
    ///   - redirectURI: The redirect URI the POST arrived at (default: the configured one).
    /// - Returns: The new session.
    /// - Throws: `invalid_callback` for a body that is too large or not form-encoded; any error of
    ///   ``handleCallback(_:)``.
    @discardableResult
    public func handleCallback(formBody: String, redirectURI: URL? = nil) async throws(AuthError) -> Session {
        guard formBody.utf8.count <= Self.maximumFormPostBytes else {
            throw failure(.invalidCallback, "The callback's form body is too large.")
        }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~%+=&*!'()/:?@,;$"))
        guard formBody.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) }) else {
            throw failure(.invalidCallback, "The callback's body is not form-encoded.")
        }
        guard let redirect = redirectURI ?? configuration.redirectURI else {
            throw failure(.invalidConfiguration, "A form_post callback needs the redirect URI it was posted to.")
        }
        guard var components = URLComponents(url: redirect, resolvingAgainstBaseURL: false) else {
            throw failure(.invalidCallback, "The redirect URI cannot be parsed.")
        }
        components.fragment = nil
        components.percentEncodedQuery = formBody
        guard let url = components.url else {
            throw failure(.invalidCallback, "The callback's body is not form-encoded.")
        }
        return try await handleCallback(url)
    }

    /// The session's user, completed from the user document a callback carries (``CallbackSpec/user``).
    ///
    /// The document is never trusted for identity: without a user from the provider and without verified
    /// ID-token claims it is ignored, and the identifier is always the provider's (`sub`). Its name and
    /// email only fill in what the user and the token lack.
    /// - Parameters:
    ///   - user: The user so far (from the token response or the user endpoint).
    ///   - claims: The verified ID token's claims, if any.
    ///   - callback: The callback's parameters.
    /// - Returns: The completed user, or `user` unchanged.
    func completingUser(_ user: User?, claims: IDTokenClaims?, callback: CallbackParameters) -> User? {
        guard let spec = provider.callback.user, let id = user?.id ?? claims?.sub else { return user }
        guard let text = callback[spec.parameter], text.utf8.count <= 8192,
            let document = JSON(data: Data(text.utf8)), document.object != nil
        else { return user }
        func string(_ pointer: String?) -> String? {
            guard let pointer, let value = document.value(at: pointer)?.string else { return nil }
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : String(trimmed.prefix(256))
        }
        let joined = [string(spec.givenName), string(spec.familyName)].compactMap { $0 }.joined(separator: " ")
        let name = string(spec.name) ?? (joined.isEmpty ? nil : joined)
        var completed = user ?? User(id: id, attributes: .object(claims?.raw ?? [:]))
        completed.email = completed.email ?? claims?.email ?? string(spec.email)
        completed.name = completed.name ?? claims?.name ?? name
        return completed
    }
}
