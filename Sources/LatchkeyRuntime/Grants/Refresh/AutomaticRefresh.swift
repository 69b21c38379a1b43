import LatchkeyPlatform

/// Proactive refresh: a client that checks its session every ``interval`` and refreshes it shortly before it
/// expires, so that the next call finds a fresh access token without waiting for a refresh.
///
/// It is off unless ``AuthClientOptions/automaticRefresh`` is set or ``AuthProviderClient/startAutomaticRefresh(_:)`` is
/// called. An app starts it when it becomes active and stops it when it goes to the background (a suspended app
/// must not refresh). Refreshes go through the same single flight as ``AuthProviderClient/currentSession(forceRefresh:)``:
/// a transport failure keeps the session and is retried at the next check; a rejection signs out.
public struct AutomaticRefresh: Sendable, Hashable {
    /// How often the session's expiry is checked.
    public var interval: LatchkeyDuration
    /// Refresh when the access token expires within this margin (or within half its lifetime, when that is
    /// shorter, so that short-lived tokens are not refreshed at every check).
    public var margin: LatchkeyDuration

    /// Creates a policy.
    /// - Parameters:
    ///   - interval: How often the expiry is checked (default 30 s; at least 10 ms).
    ///   - margin: How long before expiry a refresh is sent (default 90 s).
    public init(interval: LatchkeyDuration = .seconds(30), margin: LatchkeyDuration = .seconds(90)) {
        self.interval = max(interval, .milliseconds(10))
        self.margin = max(margin, .zero)
    }

    /// Checks every 30 seconds and refreshes 90 seconds before expiry.
    public static let standard = AutomaticRefresh()

    /// The margin for a session: ``margin``, or half the token's lifetime when that is shorter.
    func effectiveMargin(lifetime: Double) -> Double {
        min(margin.timeInterval, max(lifetime, 0) / 2)
    }
}
