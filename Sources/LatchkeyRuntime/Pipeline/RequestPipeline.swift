import Foundation

/// The ordered stages every request of an ``AuthClient`` passes through, around its ``HTTPTransport``.
///
/// ``send(_:context:)`` lets each stage prepare the request, checks the result against ``HeaderFieldRules``,
/// sends it, and lets each stage read the response; when one asks for a retry, the original request is
/// prepared and sent once more (never twice).
struct RequestPipeline: Sendable {
    /// The stages, in order.
    let stages: [any RequestStage]
    /// The transport.
    let transport: any HTTPTransport

    /// The stages of every client: the `Authorization` header, the DPoP proof, then the DPoP nonce retry.
    static let standardStages: [any RequestStage] = [
        AuthorizationHeaderStage(), DPoPProofStage(), DPoPNonceRetryStage(),
    ]

    /// Sends a request through the stages.
    /// - Returns: The final response and the request as it was last sent.
    /// - Throws: a stage's error, `invalid_request` for a header a stage made unsafe, or the transport's error.
    func send(_ original: TransportRequest, context: RequestContext) async throws(AuthError) -> (
        response: TransportResponse, sent: TransportRequest
    ) {
        var context = context
        while true {
            var request = original
            for stage in stages { try stage.prepare(&request, context: context) }
            do {
                try HeaderFieldRules.check(request)
            } catch {
                var refused = error
                refused.provider = context.provider
                throw refused
            }
            let response = try await transport.send(request)
            var retry = false
            for stage in stages where stage.interpret(response, to: request, context: context) == .retry {
                retry = true
            }
            if !retry || context.isRetry { return (response, request) }
            context.isRetry = true
        }
    }
}
