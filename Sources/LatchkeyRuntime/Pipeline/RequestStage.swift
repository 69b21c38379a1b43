import Foundation
import LatchkeyTokens

/// One step every request the runtime sends passes through: it adjusts the request before it is sent, and may
/// ask for it to be sent once more after reading the response (a server's `use_dpop_nonce`).
///
/// Stages run in the order of ``RequestPipeline/stages``: ``prepare(_:context:)`` in that order before sending,
/// ``interpret(_:to:context:)`` in that order after, and ``redact(_:context:)`` on every error the request ends
/// with. A new cross-cutting step is one stage in one file, added where the pipeline is assembled
/// (``RequestPipeline/standard(provider:clientSecret:additionalTokenParameters:logger:transport:)``).
protocol RequestStage: Sendable {
    /// Adjusts a request before it is sent (a header, a proof). Called again for a retry, on the request as it
    /// was before any stage ran.
    func prepare(_ request: inout TransportRequest, context: RequestContext) throws(AuthError)

    /// Reads the response; returns ``RequestStageVerdict/retry`` to have the request prepared and sent once more.
    func interpret(_ response: TransportResponse, to request: TransportRequest, context: RequestContext)
        -> RequestStageVerdict

    /// Adjusts an error the request ends with (the transport's, a stage's, or the provider's answer mapped to
    /// one) before anyone sees it: what it may not say.
    func redact(_ error: AuthError, context: RequestContext) -> AuthError
}

extension RequestStage {
    func interpret(_ response: TransportResponse, to request: TransportRequest, context: RequestContext)
        -> RequestStageVerdict
    { .accept }

    func redact(_ error: AuthError, context: RequestContext) -> AuthError { error }
}

/// What a stage makes of a response.
enum RequestStageVerdict: Sendable, Equatable {
    /// The response stands.
    case accept
    /// Send the request again (at most once per request, whichever stage asks).
    case retry
}

/// What the stages know about a request beyond its bytes.
struct RequestContext: Sendable {
    /// The provider's descriptor name, for errors.
    var provider: String
    /// The access token the request carries in `Authorization`, if any.
    var accessToken: String?
    /// The scheme of that `Authorization` header (`Bearer`, `DPoP`).
    var authorizationScheme = "Bearer"
    /// The key to prove possession with, when the request carries a DPoP proof.
    var proofKey: DPoPKey?
    /// The servers' nonces.
    var nonces: DPoPNonces?
    /// `iat` of a proof.
    var now: @Sendable () -> Date = { Date() }
    /// A proof's `jti`.
    var makeIdentifier: @Sendable () -> String = { RandomToken.make(bytes: 16) }
    /// Whether this is the request's second sending.
    var isRetry = false
    /// The descriptor request this is, when it was built from one (`nil` for discovery documents, key sets and
    /// the app's resource requests).
    var descriptorRequest: DescriptorRequest?
    /// Every secret the request may carry (flow values, tokens, the client secret): cut out of its errors.
    var secrets: [String?] = []

    /// A context for a request with neither token nor proof (discovery, JWKS).
    init(provider: String) {
        self.provider = provider
    }
}

/// A request built from the descriptor's ``ProviderSpec/requests``, as its stages need to know it.
struct DescriptorRequest: Sendable {
    /// Its name in ``ProviderSpec/requests``.
    var name: String
    /// Its spec: the body encoding and the client authentication.
    var spec: RequestSpec
    /// The variables it was rendered with.
    var scope: VariableScope
    /// Whether it is a token request (code exchange, refresh, device-code token, client credentials), which
    /// gets the extra token parameters.
    var isTokenRequest: Bool
}
