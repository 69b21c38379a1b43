import Foundation
import LatchkeyTokens

/// Logs every request as it is prepared to be sent, at `debug`: its method, host and path, and the descriptor request's name
/// (`POST idp.example/token (refresh)`). Never its query, headers or body, where the secrets are; a retry is
/// logged as such.
struct RequestLogStage: RequestStage {
    /// The provider's descriptor name.
    let provider: String
    /// The app's logger (``AuthClientOptions/logger``); nothing is built without one.
    let logger: (@Sendable (LogRecord) -> Void)?

    func prepare(_ request: inout TransportRequest, context: RequestContext) throws(AuthError) {
        guard let logger else { return }
        var line = "\(request.method) \(request.url.host ?? "")\(request.url.path)"
        if let name = context.descriptorRequest?.name { line += " (\(name))" }
        if context.isRetry { line += ", sent again" }
        logger(LogRecord(level: .debug, message: line, provider: provider))
    }
}
