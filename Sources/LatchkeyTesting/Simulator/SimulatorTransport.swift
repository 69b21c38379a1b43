import Foundation
import LatchkeyRuntime

/// A transport that sends every request to the simulator, whatever its host: descriptors whose URLs
/// are fixed (`https://fidm.{dataCenter}/...`) then reach the simulator too. Paths and queries are kept.
struct SimulatorTransport: HTTPTransport {
    let base: URL
    let inner: URLSessionTransport

    func send(_ request: HTTPRequest) async throws(AuthError) -> HTTPResponse {
        var rewritten = request
        if request.url.host != base.host || request.url.port != base.port,
            var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        {
            components.scheme = base.scheme
            components.host = base.host
            components.port = base.port
            if let url = components.url { rewritten.url = url }
        }
        return try await inner.send(rewritten)
    }
}
