import Foundation
@_spi(Generated) import LatchkeyRuntime

/// A transport that sends every request to the simulator, whatever its host: descriptors whose URLs
/// are fixed (`https://fidm.{dataCenter}/...`) then reach the simulator too. Paths and queries are kept.
struct SimulatorTransport: HTTPTransport {
    let base: URL
    let inner: any HTTPTransport

    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        var rewritten = request
        rewritten.url = Self.route(request.url, to: base)
        return try await inner.send(rewritten)
    }

    /// The URL with the scheme, host and port of `base` (unchanged when it is already on `base`).
    static func route(_ url: URL, to base: URL) -> URL {
        guard url.host != base.host || url.port != base.port,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.scheme = base.scheme
        components.host = base.host
        components.port = base.port
        return components.url ?? url
    }
}
