import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// More of the app's redirect URIs, for emailed links.
extension SupabaseAppURLs {
    /// Sign-up confirmation links come back here (when configured as `"confirmation"`).
    static let confirmation = URL(string: "dev.example.app://confirm-email")!
}

/// The next event a stream yields, waiting as long as it takes (the suite's time limit ends a wait for an
/// event that never comes), or `nil` when the stream ends.
func nextEvent(_ stream: AsyncStream<AuthEvent>) async -> AuthEvent? {
    var iterator = stream.makeAsyncIterator()
    return await iterator.next()
}

/// The next event a stream yields within a time limit, or `nil` when none comes: for checking that nothing
/// happens (a late event on a loaded machine makes this check pass, never fail).
func nextEvent(_ stream: AsyncStream<AuthEvent>, within limit: LatchkeyDuration) async -> AuthEvent? {
    await withTaskGroup(of: AuthEvent?.self) { group in
        group.addTask {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        group.addTask {
            try? await LatchkeyDuration.sleep(limit)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// The fragment parameters of a URL, for checks.
func fragmentItems(_ url: URL) -> [String: String] {
    var components = URLComponents()
    components.percentEncodedQuery = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedFragment
    let items = components.queryItems ?? []
    return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
}

/// Checks that an error and everything it prints hold none of the secrets.
func expectNoSecrets(
    _ error: AuthError?, _ secrets: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let error else { return }
    let texts = [error.message, error.providerCode ?? "", String(describing: error), String(reflecting: error)]
    for secret in secrets where !secret.isEmpty {
        for text in texts {
            #expect(!text.contains(secret), "a token leaked into \(text)", sourceLocation: sourceLocation)
        }
    }
}

/// Collects a client's log records.
final class LogCollector: Sendable {
    private let records = Locked<[LogRecord]>([])

    /// Every record so far.
    var all: [LogRecord] { records.withLock { $0 } }

    /// The logger to hand to ``AuthClientOptions``.
    var logger: @Sendable (LogRecord) -> Void {
        { [self] record in self.records.withLock { $0.append(record) } }
    }
}
