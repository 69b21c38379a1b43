import Foundation

extension AuthClient {
    /// Starts proactive refresh (see ``AutomaticRefresh``); calling it again replaces the policy.
    ///
    /// The checks run on a task that holds the client weakly: a client nobody uses any more stops checking.
    /// Call ``stopAutomaticRefresh()`` when the app goes to the background.
    /// - Parameter policy: How often to check and how early to refresh.
    public func startAutomaticRefresh(_ policy: AutomaticRefresh = .standard) {
        automaticRefreshTask?.cancel()
        automaticRefreshTask = Task { [weak self] in
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: policy.interval)
                } catch {
                    return
                }
                guard let self else { return }
                await self.refreshIfExpiring(policy)
            }
        }
    }

    /// Stops proactive refresh; a refresh already sent completes.
    public func stopAutomaticRefresh() {
        automaticRefreshTask?.cancel()
        automaticRefreshTask = nil
    }

    /// Whether proactive refresh is running.
    public var isRefreshingAutomatically: Bool { automaticRefreshTask != nil }

    /// Starts the refresh that ``AuthClientOptions/automaticRefresh`` asks for, once: when the client first
    /// knows its session (restored or signed in). A later ``stopAutomaticRefresh()`` is not undone.
    func startConfiguredAutomaticRefresh() {
        guard !automaticRefreshConfigured, let policy = options.automaticRefresh else { return }
        automaticRefreshConfigured = true
        if automaticRefreshTask == nil { startAutomaticRefresh(policy) }
    }

    /// One check: refreshes a refreshable session whose access token expires within the policy's margin.
    func refreshIfExpiring(_ policy: AutomaticRefresh) async {
        guard loaded, let current = session, let expiresAt = current.expiresAt, current.refreshToken != nil,
            provider.flows.refresh != nil
        else { return }
        let margin = policy.effectiveMargin(lifetime: expiresAt.timeIntervalSince(current.issuedAt))
        guard expiresAt.timeIntervalSince(now()) <= margin else { return }
        do {
            _ = try await currentSession(forceRefresh: true)
        } catch {
            log(
                .info,
                "The automatic refresh failed (\(error.code.rawValue)); \(error.kind == .rejected ? "signed out" : "retrying at the next check")."
            )
        }
    }
}
