import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// Callbacks that carry a session in their fragment (GoTrue's confirmation, magic and recovery links in the
/// implicit shape), accepted only on the redirect URIs the descriptor's `callback.implicit` names.
extension AuthClient {
    /// What a callback URL on an implicit-session redirect URI carries.
    enum ImplicitLink: Sendable, Equatable {
        /// An access token in the fragment.
        case session
        /// An error and no access token.
        case error
    }

    /// The configured redirect URIs that accept a session in the fragment.
    nonisolated var implicitRedirectURIs: [URL] {
        guard let spec = provider.callback.implicitSession else { return [] }
        return spec.redirects.compactMap { name in
            name == ImplicitSessionSpec.defaultRedirect ? configuration.redirectURI : configuration.redirectURIs[name]
        }
    }

    /// The fragment parameter that holds a session field, from its one-segment session pointer.
    nonisolated func fragmentParameter(_ pointer: String?) -> String? {
        guard let pointer, pointer.hasPrefix("/"), pointer.count > 1, !pointer.dropFirst().contains("/") else {
            return nil
        }
        return String(pointer.dropFirst())
    }

    /// Whether a URL carries a fragment session (or an error) for a redirect URI that accepts one; `nil` when
    /// it does not, when the URL is for no such redirect URI, or when it carries a session and
    /// ``AuthClientOptions/acceptsImplicitSessionLinks`` is `false`.
    nonisolated func implicitLink(_ url: URL) -> ImplicitLink? {
        guard implicitRedirectURIs.contains(where: { RedirectURI.matches(url, $0) }) else { return nil }
        let contents = fragmentContents(url)
        if contents == .session, !options.acceptsImplicitSessionLinks { return nil }
        return contents
    }

    /// What a URL's fragment carries, whatever its redirect URI.
    nonisolated func fragmentContents(_ url: URL) -> ImplicitLink? {
        guard let fragment = try? CallbackParameters(url: url, location: .fragment, provider: provider.name) else {
            return nil
        }
        if let name = fragmentParameter(provider.session.accessToken), fragment[name] != nil { return .session }
        let spec = provider.callback
        if fragment[spec.errorParameter] != nil || spec.errorCodeParameter.flatMap({ fragment[$0] }) != nil {
            return .error
        }
        return nil
    }

    /// Signs in with the session in a callback's fragment: the tokens come from the fragment, the user from the
    /// user-info request sent with the new access token (never from the fragment).
    ///
    /// A fragment that carries an error is mapped to its stable code with no request. The tokens never reach
    /// an error, a description or a log.
    /// - Parameter url: A callback URL for which ``implicitLink(_:)`` is not `nil`.
    /// - Returns: The new session.
    /// - Throws: `invalid_callback` (a token in the query, a replayed link), the mapped callback error, the
    ///   user-info request's errors.
    func completeImplicitSession(_ url: URL) async throws(AuthError) -> Session {
        guard let spec = provider.callback.implicitSession, let userInfo = provider.flows.userInfo else {
            throw failure(.invalidConfiguration, "This provider accepts no session in a callback's fragment.")
        }
        try? await ensureLoaded()
        let previous = self.state == .authenticating ? AuthState.signedOut : self.state
        let fragment = try CallbackParameters(url: url, location: .fragment, provider: provider.name)
        let query = try CallbackParameters(url: url, location: .query, provider: provider.name)
        let mapping = provider.session
        let fields = [mapping.accessToken, mapping.refreshToken, mapping.idToken].compactMap { fragmentParameter($0) }
        let secrets = fields.compactMap { fragment[$0] }
        if fields.contains(where: { query[$0] != nil }) {
            throw failure(.invalidCallback, "The callback carries a token in its query; tokens belong in the fragment.")
        }
        if fragment[provider.callback.errorParameter] != nil
            || provider.callback.errorCodeParameter.flatMap({ fragment[$0] }) != nil
        {
            throw mappedCallbackError(fragment).redacting(secrets)
        }
        var members: [String: JSON] = [:]
        for pointer in [mapping.accessToken, mapping.refreshToken, mapping.idToken, mapping.tokenType, mapping.scope] {
            if let name = fragmentParameter(pointer), let value = fragment[name] { members[name] = .string(value) }
        }
        for pointer in [mapping.expiresIn, mapping.expiresAt] {
            guard let name = fragmentParameter(pointer), let text = fragment[name] else { continue }
            guard let number = Double(text), number.isFinite else {
                throw failure(.invalidCallback, "The callback's '\(name)' is not a number.")
            }
            members[name] = .number(number)
        }
        var fresh = try decoder.session(from: .object(members), now: now(), serverDate: nil)
        fresh.user = nil
        let replayKey =
            "implicit:"
            + SHA2Hash.sha256(Array(fresh.accessToken.utf8)).map { String(format: "%02x", $0) }
            .joined()
        guard !consumedStates.contains(replayKey) else {
            throw failure(.invalidCallback, "This callback was already used.")
        }
        consumedStates.insert(replayKey)
        apply(.signInStarted)
        let fence = signInFence()
        let installed: Session
        do {
            let accessClaims = try await validateNewAccessToken(&fresh)
            let (_, document, _) = try await send(
                userInfo.request, accessToken: fresh.accessToken, proofKey: fresh.boundProofKey)
            try checkUserDocument(document, against: accessClaims)
            if !provider.tokens.userFromAccessToken || accessClaims == nil {
                fresh.user = try decoder.user(from: document ?? .null)
            }
            installed = try await install(fresh, fence: fence)
        } catch {
            publishAfterFailure(previous: previous)
            throw error.redacting(secrets)
        }
        log(.info, "Signed in from a session in a callback's fragment.")
        if let name = spec.typeParameter, let type = fragment[name], let event = spec.events[type] {
            eventBroadcaster.publish(AuthEvent(event))
        }
        return installed
    }
}
