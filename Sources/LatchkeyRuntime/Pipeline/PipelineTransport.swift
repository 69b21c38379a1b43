import Foundation
import LatchkeyTokens

/// A ``RequestPipeline`` as an ``HTTPTransport``, for the code that takes one (the JWKS and PASETO key-set
/// caches): every request it sends passes through the client's stages with the context it was made with.
/// A class: it holds a whole ``RequestContext`` and is kept as `any HTTPTransport`, so one reference stands for it.
final class PipelineTransport: HTTPTransport {
    /// The pipeline.
    let pipeline: RequestPipeline
    /// The context of every request (a key set's: neither token nor proof).
    let context: RequestContext

    /// Creates the transport.
    /// - Parameters:
    ///   - pipeline: The pipeline.
    ///   - context: The context of every request.
    init(pipeline: RequestPipeline, context: RequestContext) {
        self.pipeline = pipeline
        self.context = context
    }

    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        try await pipeline.send(request, context: context).response
    }
}
