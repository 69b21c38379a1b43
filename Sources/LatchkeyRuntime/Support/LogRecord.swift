/// One diagnostic from the runtime, handed to ``AuthClientOptions/logger``.
///
/// Records are at info level or below and never contain a token, a password or a full request body.
public struct LogRecord: Sendable, Hashable, CustomStringConvertible {
    /// How important a record is.
    public enum Level: String, Sendable, Hashable, Comparable {
        /// Detail for debugging.
        case debug
        /// Something worth knowing: a discarded refresh, a corrupt store record.
        case info

        /// Orders `debug` before `info`.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs == .debug && rhs == .info }
    }

    /// The level.
    public var level: Level
    /// The message.
    public var message: String
    /// The descriptor name of the provider.
    public var provider: String

    /// Creates a record.
    /// - Parameters:
    ///   - level: The level.
    ///   - message: The message.
    ///   - provider: The descriptor name.
    public init(level: Level, message: String, provider: String) {
        self.level = level
        self.message = message
        self.provider = provider
    }

    /// `[provider] level: message`.
    public var description: String { "[\(provider)] \(level.rawValue): \(message)" }
}
