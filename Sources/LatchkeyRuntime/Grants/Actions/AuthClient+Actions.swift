import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

extension AuthClient {
    /// Performs a provider-specific action (sign-up, password reset, ...).
    ///
    /// Arguments are checked against the action's parameters (presence, type, minimum length, allowed
    /// values) before any request is sent.
    ///
    /// An action the descriptor gives a `pkce` option (``ActionSpec/linkPKCE``) starts a PKCE flow that an
    /// emailed link completes (Supabase's sign-up, resend, magic link and password recovery). When the link's
    /// redirect URI (the action's URL argument, else the first configured one among the option's `redirects`)
    /// is one the app configured, or another URL of a configured custom scheme, a verifier is made, the
    /// request's `{code_challenge}` and `{code_challenge_method}` are filled, and the verifier is kept with the
    /// pending browser sign-ins in the store, so that ``handleCallback(_:)`` (or a ``CallbackRouter``)
    /// exchanges the link's `?code=`, even after a relaunch. Otherwise no challenge is sent. A sign-up answered
    /// with a session at once keeps nothing pending. A session an action answers with is installed only when no
    /// ``signOut(scope:)`` (or sign-in) happened while its request was on the wire, as for the code exchange.
    /// An action with a result pointer (``ActionSpec/resultPointer``, the descriptor's `returns`) answers
    /// `.document` with that member of the provider's document, and `invalid_response` when it is missing.
    /// An action with an event (``ActionSpec/event``, `user_updated`) publishes it on ``events()`` once it
    /// has succeeded. An action with follow-ups (``ActionSpec/followUps``, the descriptor's `then`) performs
    /// them in order, each with values read from the answer before it, and returns the last one's result.
    /// - Parameters:
    ///   - action: The action's name.
    ///   - arguments: The arguments by parameter name.
    /// - Returns: The result, as the action's response kind says.
    /// - Throws: `invalid_configuration` for an unknown action, or one whose follow-ups run a passkey ceremony
    ///   (call ``perform(action:arguments:passkeyAuthenticator:)``); `validation_failed` for bad arguments;
    ///   the provider's mapped error; `login_cancelled` when a session answer lost to a sign-out.
    public func perform(action: String, arguments: [String: ActionArgument] = [:]) async throws(AuthError)
        -> ActionResult
    {
        try await perform(action: action, arguments: arguments, passkeyAuthenticator: nil)
    }

    /// Performs a provider-specific action whose follow-ups run a WebAuthn ceremony (Supabase's
    /// `signInWithPasskey`: the assertion options, the ceremony, the verification), as
    /// ``perform(action:arguments:)`` does.
    ///
    /// Between two steps whose follow-up declares a ceremony (``ActionFollowUpSpec/ceremony``), the W3C options
    /// are read from the answer before it, `passkeyAuthenticator` makes the credential, and the credential JSON
    /// is the next action's argument, sent as it is. When the authenticator throws (`login_cancelled` when the
    /// user closes the sheet), nothing more is sent.
    /// - Parameters:
    ///   - action: The action's name.
    ///   - arguments: The arguments by parameter name.
    ///   - passkeyAuthenticator: Runs the ceremonies; `nil` only for an action without one.
    /// - Returns: The last step's result.
    /// - Throws: `invalid_configuration` for an unknown action, or a ceremony without an authenticator (before
    ///   any request); `invalid_response` when an answer lacks a value or the options a step needs (nothing more
    ///   is sent); the authenticator's errors; as ``perform(action:arguments:)`` otherwise.
    public func perform(
        action: String, arguments: [String: ActionArgument] = [:],
        passkeyAuthenticator: (any PasskeyAuthenticator)?
    ) async throws(AuthError) -> ActionResult {
        guard let spec = provider.actions.first(where: { $0.name == action }) else {
            throw failure(.invalidConfiguration, "This provider has no action '\(action)'.")
        }
        if passkeyAuthenticator == nil, spec.followUps.contains(where: { $0.ceremony != nil }) {
            throw failure(
                .invalidConfiguration, "The action '\(action)' runs a passkey ceremony and needs an authenticator.")
        }
        let (result, answer) = try await performStep(spec, arguments: arguments)
        guard !spec.followUps.isEmpty else { return result }
        return try await performFollowUps(
            of: spec, arguments: arguments, answer: answer, authenticator: passkeyAuthenticator)
    }

    /// Performs one action: its request, its result and its event (not its follow-ups).
    /// - Returns: The result and the answer's whole JSON document, from which follow-ups read.
    func performStep(_ spec: ActionSpec, arguments: [String: ActionArgument]) async throws(AuthError)
        -> (ActionResult, JSON?)
    {
        var grant = try ActionGrant(
            action: spec, request: provider.requests[spec.request], arguments: arguments, provider: provider.name)
        let linkFlow = startLink(&grant)
        let fence = signInFence()
        let (request, document, response) = try await send(grant.request, proofKey: nil)
        let result: ActionResult
        switch try grant.interpret(document, headers: response.headerFields, decoder: decoder) {
        case .result(let answer):
            result = answer
        case .user(let user):
            try await adopt(user)
            result = .user(user)
        case .session:
            // Installed only when the fence has not moved (no sign-out meanwhile).
            result = .session(try await install(try decodeSession(document, response, request: request), fence: fence))
        }
        // Signed in at once (an auto-confirmed sign-up): no email was sent, so no link will come.
        var signedInAtOnce = false
        if case .session = result { signedInAtOnce = true }
        if let linkFlow, !signedInAtOnce { try await updatePending { flows in flows.append(linkFlow) } }
        if let event = spec.event { eventBroadcaster.publish(AuthEvent(event)) }
        return (result, document)
    }

    /// The pending flow of an action with a `pkce` option, its challenge added to the grant; `nil` when the
    /// action has none or no redirect URI the app handles applies.
    private func startLink(_ grant: inout ActionGrant) -> PendingFlow? {
        guard
            let redirect = grant.linkRedirect(
                configuration: configuration, hasCodeFlow: provider.flows.authorizationCode != nil)
        else { return nil }
        let verifier = PKCE.makeVerifier(using: options.random)
        grant.addLinkChallenge(verifier: verifier, redirect: redirect)
        return PendingFlow(
            state: RandomToken.make(using: options.random), codeVerifier: verifier, nonce: nil, redirectURI: redirect,
            createdAt: now(), lifetime: grant.action.linkPKCE?.lifetime, event: grant.action.linkPKCE?.event)
    }

    /// Fetches the signed-in user through the user-info flow and keeps it in the session.
    ///
    /// When the session's ID token was verified, the user document must name its `sub`; when its access token
    /// is verifiable, the document must agree with it at the descriptor's `tokens.userDocumentMustMatch`.
    /// - Returns: The user.
    /// - Throws: `invalid_configuration` without a user-info flow; `session_missing` when signed out;
    ///   `invalid_response` when the document names another subject than the verified ID token or another
    ///   principal than the access token.
    @discardableResult
    public func fetchUser() async throws(AuthError) -> User {
        guard let flow = provider.flows.userInfo else {
            throw failure(.invalidConfiguration, "This provider has no user-info request.")
        }
        let (_, document, _) = try await send(flow.request)
        if provider.tokens.accessTokenFormat.behaviour.verification != nil, let session {
            // The stored access token was verified when it was stored: the document must name its principal.
            try checkUserDocument(document, against: storedAccessTokenClaims(session) ?? [:])
        }
        let user = try decoder.user(from: document ?? .null)
        if let subject = verifiedSubject, subject != user.id {
            throw failure(.invalidResponse, "The user document names another subject than the verified ID token.")
        }
        try await adopt(user)
        return user
    }

    /// Puts a fresh user document into the current session when it is the same person.
    private func adopt(_ user: User) async throws(AuthError) {
        guard var current = session, current.user == nil || current.user?.id == user.id else {
            return
        }
        current.user = user
        if case .installedNotStored(let error) = await commit(current, generation: generation) { throw error }
    }
}
