import Foundation

/// One step every request the runtime sends passes through: it adjusts the request before it is sent, and may
/// ask for it to be sent once more after reading the response (a server's `use_dpop_nonce`).
///
/// Stages run in the order of ``RequestPipeline/stages``: ``prepare(_:context:)`` in that order before sending,
/// ``interpret(_:to:context:)`` in that order after. A new cross-cutting step is one stage in one file, added to
/// ``RequestPipeline/standardStages``.
protocol RequestStage: Sendable {
    /// Adjusts a request before it is sent (a header, a proof). Called again for a retry, on the request as it
    /// was before any stage ran.
    func prepare(_ request: inout TransportRequest, context: RequestContext) throws(AuthError)

    /// Reads the response; returns ``RequestStageVerdict/retry`` to have the request prepared and sent once more.
    func interpret(_ response: TransportResponse, to request: TransportRequest, context: RequestContext)
        -> RequestStageVerdict
}

extension RequestStage {
    func interpret(_ response: TransportResponse, to request: TransportRequest, context: RequestContext)
        -> RequestStageVerdict
    { .accept }
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

    /// A context for a request with neither token nor proof (discovery, JWKS).
    init(provider: String) {
        self.provider = provider
    }
}
