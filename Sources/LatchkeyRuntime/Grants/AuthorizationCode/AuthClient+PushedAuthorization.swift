import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// A pushed authorization request (RFC 9126) that a browser sign-in opens: what was pushed, so that an expired
/// `request_uri` can be replaced by pushing the same parameters again (with a proof of the same key).
struct PushedAuthorization: Sendable {
    /// The pushed authorization request endpoint.
    var endpoint: URL
    /// The authorization parameters, as they were pushed.
    var parameters: [(name: String, value: String)]
    /// The client's own authentication, as for the token endpoint.
    var clientAuthentication: RequestSpec.ClientAuthentication
    /// The authorization URL's template and scope, for the URL that carries `client_id` and `request_uri`.
    var authorizeURL: ValueTemplate
    var scope: VariableScope
    /// With DPoP, the sign-in's key (the one `dpop_jkt` names): each push carries a proof of it (RFC 9449 §10.1),
    /// so the push meets the endpoint's `DPoP-Nonce` challenge, and a server that checks proofs at its pushed
    /// authorization endpoint sees the key `dpop_jkt` names.
    var proofKey: DPoPKey?
}

extension AuthClient {
    /// How long before its `expires_in` ends a pushed `request_uri` counts as expired: the browser needs a moment
    /// to open it.
    static let pushedRequestMargin: TimeInterval = 2

    /// The pushed authorization request endpoint a sign-in pushes to, or `nil` when it sends its parameters in
    /// the authorization URL: the descriptor declares `pushedAuthorization`, and it is used `always`, or
    /// discovery says `require_pushed_authorization_requests`, or ``AuthClientOptions/pushesAuthorizationRequests``.
    /// - Throws: `invalid_configuration` when a sign-in must push but the endpoint is unknown (discovery has no
    ///   `pushed_authorization_request_endpoint`).
    func pushedAuthorizationEndpoint(in scope: VariableScope) throws(AuthError) -> URL? {
        guard let spec = provider.senderConstraint.pushedAuthorization else { return nil }
        let required = discovery?.document["require_pushed_authorization_requests"]?.bool == true
        guard spec.use == .always || required || options.pushesAuthorizationRequests else { return nil }
        do {
            return try builder.endpoint(spec.url, query: [], scope: scope)
        } catch {
            throw failure(
                .invalidConfiguration,
                "Sign-ins push their authorization request, but the pushed authorization endpoint is unknown.")
        }
    }

    /// Pushes authorization parameters (RFC 9126 §2) and returns the URL that opens them: the authorization
    /// endpoint with only `client_id` and `request_uri`. With DPoP the request carries a proof of the sign-in's
    /// key as well as `dpop_jkt` (RFC 9449 §10.1: a server may check either; the proof has no `ath`), and a 400
    /// `use_dpop_nonce` with a `DPoP-Nonce` is answered by one retry carrying the nonce, which the code exchange
    /// then reuses (the authorization server's nonce, ``DPoPNonces``).
    /// - Returns: The URL and when its `request_uri` expires (`expires_in`, less ``pushedRequestMargin``).
    /// - Throws: the endpoint's error mapped like a token endpoint's (`invalid_request`, `invalid_client`, ...);
    ///   `invalid_response` for an answer without `request_uri` or `expires_in`.
    func push(_ pushed: PushedAuthorization) async throws(AuthError) -> (url: URL, expiresAt: Date) {
        let spec = RequestSpec(
            method: "POST", url: ValueTemplate(literal: pushed.endpoint.absoluteString), encoding: .form,
            body: pushed.parameters.map { ParameterSpec($0.name, .string(ValueTemplate(literal: $0.value))) },
            clientAuthentication: pushed.clientAuthentication, response: .document)
        let request = try builder.build(spec, scope: pushed.scope)
        var context = requestContext(proofKey: pushed.proofKey)
        context.descriptorRequest = DescriptorRequest(
            name: "pushed authorization request", spec: spec, scope: pushed.scope, isTokenRequest: false)
        context.secrets =
            pushed.parameters.filter { $0.name == "code_challenge" || $0.name == "nonce" }.map(\.value)
            + [configuration.clientSecret]
        let response = try await pipeline.send(request, context: context).response
        let document: JSON?
        do {
            document = try mapper.document(from: response, for: spec, named: "pushedAuthorization")
        } catch {
            throw pipeline.redact(error, context: context)
        }
        guard let requestURI = document?["request_uri"]?.string, !requestURI.isEmpty,
            let lifetime = document?["expires_in"]?.double, lifetime.isFinite, lifetime >= 0
        else {
            throw failure(.invalidResponse, "The pushed authorization response has no request_uri or expires_in.")
        }
        guard let clientID = pushed.parameters.first(where: { $0.name == "client_id" })?.value else {
            throw failure(.invalidConfiguration, "A pushed authorization request needs the client_id parameter.")
        }
        let url = try builder.endpoint(
            pushed.authorizeURL, query: [("client_id", clientID), ("request_uri", requestURI)], scope: pushed.scope)
        return (url, now().addingTimeInterval(max(0, lifetime - Self.pushedRequestMargin)))
    }

    /// The URL to open for a prepared sign-in: the prepared one, or, when its pushed `request_uri` has expired, a
    /// fresh one from pushing the same parameters again (never a dead URL).
    func openableURL(_ request: AuthorizationRequest) async throws(AuthError) -> URL {
        guard let expiresAt = request.expiresAt, now() >= expiresAt, let pushed = pushedAuthorizations[request.state]
        else { return request.url }
        log(.info, "The pushed authorization request expired before the browser opened it; pushing it again.")
        return try await push(pushed).url
    }

    /// Remembers what a sign-in pushed (a few at a time: only sign-ins still to be opened need it).
    func rememberPushed(_ pushed: PushedAuthorization, state: String) {
        if pushedAuthorizations.count >= 8 { pushedAuthorizations.removeAll() }
        pushedAuthorizations[state] = pushed
    }
}
