import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// The descriptor's requests, sent through the client's ``RequestPipeline``: the one way every grant, action and
/// sign-out reaches the network (discovery, key sets and the app's resource requests go through the same
/// pipeline with contexts of their own).
extension AuthClient {
    /// Sends one of the provider's requests through the ``RequestPipeline`` and checks the response; an error it
    /// ends with (the transport's, or the provider's answer mapped to one) is redacted by the pipeline.
    /// - Parameters:
    ///   - name: The request's name in ``ProviderSpec/requests``.
    ///   - flow: The flow's variables.
    ///   - accessToken: The access token for `.accessToken` requests (the valid one when `nil`).
    ///   - isTokenRequest: Whether the extra token parameters are added (and, with DPoP, a proof).
    ///   - proofKey: The DPoP key to prove possession of: a token request's (the sign-in's, the refreshed
    ///     session's), or that of the session whose `accessToken` is given (by default the current session's
    ///     when it is DPoP-bound); ignored unless the client uses DPoP. Without one, no proof is sent.
    /// - Returns: The request spec, the JSON body (if any) and the response.
    func send(
        _ name: String, flow: [String: JSON?] = [:], accessToken: String? = nil, isTokenRequest: Bool = false,
        proofKey: DPoPKey? = nil
    ) async throws(AuthError) -> (spec: RequestSpec, document: JSON?, response: TransportResponse) {
        guard let spec = provider.requests[name] else {
            throw failure(.invalidConfiguration, "The descriptor has no request named '\(name)'.")
        }
        var bearer = accessToken
        var key = proofKey
        if spec.authorization == .accessToken {
            if bearer == nil {
                bearer = try await validAccessToken()
                key = session.flatMap { $0.accessToken == bearer ? $0.boundProofKey : nil }
            } else {
                key = proofKey ?? session.flatMap { $0.accessToken == bearer ? $0.boundProofKey : nil }
            }
            guard bearer != nil else {
                throw failure(.sessionMissing, "This request needs a signed-in session.")
            }
        }
        let sessionTokens: [String: JSON?] = [
            "access_token": session.map { .string($0.accessToken) },
            "refresh_token": session?.refreshToken.map(JSON.string),
            "id_token": session?.idToken.map(JSON.string),
        ]
        let templates = provider.templates(of: spec, isTokenRequest: isTokenRequest)
        try checkCaptures(in: templates, request: name, flow: flow)
        let scope = try await scope(flow, rendering: templates)
        let request = try builder.build(spec, scope: scope)
        var context = requestContext(proofKey: usesDPoP ? key : nil)
        context.descriptorRequest = DescriptorRequest(
            name: name, spec: spec, scope: scope, isTokenRequest: isTokenRequest)
        context.secrets = secretsSent(flow: flow.merging(sessionTokens) { own, _ in own }, bearer: bearer)
        if spec.authorization == .accessToken {
            context.accessToken = bearer
            context.authorizationScheme = context.proofKey == nil ? spec.authorizationScheme : "DPoP"
        }
        let response = try await pipeline.send(request, context: context).response
        do {
            return (spec, try mapper.document(from: response, for: spec, named: name), response)
        } catch {
            // A provider may echo what it was sent (a code, a token, a password) in its error.
            let redacted = pipeline.redact(error, context: context)
            await endSessionIfProviderEndedIt(redacted, spec: spec, bearer: bearer)
            throw redacted
        }
    }

    /// Forgets the session (publishing `signedOut`) when a request sent with the current session's access token
    /// is refused with one of the descriptor's `errors.sessionEndedCodes` (GoTrue's `session_not_found`): the
    /// server has already ended the session, so keeping it would only fail again. Any other refusal keeps it.
    /// The descriptor's `errors.sessionEndedEvents` names an event to publish afterwards (`user_deleted`).
    private func endSessionIfProviderEndedIt(_ error: AuthError, spec: RequestSpec, bearer: String?) async {
        guard spec.authorization == .accessToken, let bearer, let current = session,
            current.accessToken == bearer, let code = error.providerCode,
            provider.errors.sessionEndedCodes.contains(code)
        else { return }
        log(.info, "The provider says the session has ended (\(code)); it is forgotten.")
        await clearSession()
        if let event = provider.errors.sessionEndedEvents[code] { eventBroadcaster.publish(AuthEvent(event)) }
    }

    /// The pipeline context of this client's requests: with a DPoP key, its proofs take `iat` from the client's
    /// clock, `jti` from its random source and nonces from ``dpopNonces``.
    nonisolated func requestContext(proofKey: DPoPKey? = nil) -> RequestContext {
        var context = RequestContext(provider: provider.name)
        guard let proofKey else { return context }
        context.proofKey = proofKey
        context.nonces = dpopNonces
        let clock = options.clock
        let random = options.random
        context.now = { clock.now }
        context.makeIdentifier = { RandomToken.make(bytes: 16, using: random) }
        return context
    }

    /// A new DPoP key for a sign-in's token request (password, code, device code, client credentials), or `nil`
    /// when the client does not use DPoP: every new session gets a key of its own.
    nonisolated func newProofKey() throws(AuthError) -> DPoPKey? {
        usesDPoP ? try DPoPKey.generate() : nil
    }

    /// Every secret a request may carry: the flow's values (codes, verifiers, tokens, passwords), the bearer
    /// token, the session's tokens and the client secret.
    nonisolated func secretsSent(flow: [String: JSON?], bearer: String?) -> [String?] {
        var secrets: [String?] = flow.values.compactMap { value -> String? in
            if case .string(let text)? = value { return text }
            return nil
        }
        secrets += [bearer, configuration.clientSecret]
        return secrets
    }
}
