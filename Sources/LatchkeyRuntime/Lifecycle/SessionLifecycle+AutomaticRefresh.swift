import Foundation

extension SessionLifecycle {
    /// Starts proactive refresh with a policy, replacing any running one.
    mutating func startAutomaticRefresh(_ policy: AutomaticRefresh) -> [Effect] {
        automaticRefresh.running = policy
        return [.startAutomaticChecks(policy)]
    }

    /// Starts the configured proactive refresh, once: when the client first knows its session (restored or
    /// signed in). A later stop is not undone, and a policy started by hand is not replaced.
    mutating func startConfiguredAutomaticRefresh() -> [Effect] {
        guard !automaticRefresh.configuredStarted, let policy = rules.automaticRefresh else { return [] }
        automaticRefresh.configuredStarted = true
        guard automaticRefresh.running == nil else { return [] }
        automaticRefresh.running = policy
        return [.startAutomaticChecks(policy)]
    }

    /// One check of proactive refresh: refresh a refreshable session whose access token expires within the
    /// policy's margin (or half its lifetime, when that is shorter).
    func clockTicked(now: Date) -> [Effect] {
        guard let policy = automaticRefresh.running, let current = session, let expiresAt = current.expiresAt,
            current.refreshToken != nil, rules.canRefresh
        else { return [] }
        let margin = policy.effectiveMargin(lifetime: expiresAt.timeIntervalSince(current.issuedAt))
        guard expiresAt.timeIntervalSince(now) <= margin else { return [] }
        return [.refreshAutomatically]
    }
}
