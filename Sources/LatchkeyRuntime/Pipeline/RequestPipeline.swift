import Foundation
import LatchkeyTokens

/// The ordered stages every request of an ``AuthClient`` passes through, around its ``HTTPTransport``.
///
/// ``send(_:context:)`` lets each stage prepare the request, sends it, and lets each stage read the response;
/// when one asks for a retry, the original request is prepared and sent once more (never twice). Whatever error
/// the request ends with passes through every stage's ``RequestStage/redact(_:context:)``.
struct RequestPipeline: Sendable {
    /// The stages, in order.
    let stages: [any RequestStage]
    /// The transport.
    let transport: any HTTPTransport

    /// The pipeline of a client, in the order its stages run: the extra token parameters, client
    /// authentication, the `Authorization` header, the DPoP proof, the request log, the header rules; then,
    /// reading the response, the DPoP nonce retry; and on an error, redaction.
    /// - Parameters:
    ///   - provider: The provider.
    ///   - configuration: The client secret.
    ///   - options: The transport, the logger and the app's additional token parameters.
    /// - Throws: `invalid_configuration` for an additional token parameter the token requests already send.
    static func standard(
        provider: ProviderSpec, configuration: ProviderConfiguration, options: AuthClientOptions
    ) throws(AuthError) -> RequestPipeline {
        let additional = try AdditionalTokenParameters.resolve(options.additionalTokenParameters, provider: provider)
        let stages: [any RequestStage] = [
            ExtraParametersStage(parameters: provider.extraTokenParameters + additional),
            ClientAuthenticationStage(clientSecret: configuration.clientSecret),
            AuthorizationHeaderStage(),
            DPoPProofStage(),
            RequestLogStage(provider: provider.name, logger: options.logger),
            HeaderFieldRulesStage(),
            DPoPNonceRetryStage(),
            RedactionStage(),
        ]
        return RequestPipeline(stages: stages, transport: options.transport)
    }

    /// Sends a request through the stages.
    /// - Returns: The final response and the request as it was last sent.
    /// - Throws: a stage's error, `invalid_request` for a header a stage made unsafe, or the transport's error,
    ///   each with the context's provider and redacted by the stages.
    func send(_ original: TransportRequest, context: RequestContext) async throws(AuthError) -> (
        response: TransportResponse, sent: TransportRequest
    ) {
        var context = context
        do {
            while true {
                var request = original
                for stage in stages { try stage.prepare(&request, context: context) }
                let response = try await transport.send(request)
                var retry = false
                for stage in stages where stage.interpret(response, to: request, context: context) == .retry {
                    retry = true
                }
                if !retry || context.isRetry { return (response, request) }
                context.isRetry = true
            }
        } catch {
            throw redact(error, context: context)
        }
    }

    /// An error a request ends with, as the stages let it be seen: with the context's provider, and redacted.
    func redact(_ error: AuthError, context: RequestContext) -> AuthError {
        var failure = error
        failure.provider = failure.provider ?? context.provider
        return stages.reduce(failure) { error, stage in stage.redact(error, context: context) }
    }
}
