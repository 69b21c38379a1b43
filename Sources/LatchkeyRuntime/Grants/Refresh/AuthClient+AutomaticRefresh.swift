import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

extension AuthClient {
    /// Starts proactive refresh (see ``AutomaticRefresh``); calling it again replaces the policy.
    ///
    /// The checks run on a task that holds the client weakly: a client nobody uses any more stops checking.
    /// Call ``stopAutomaticRefresh()`` when the app goes to the background.
    /// - Parameter policy: How often to check and how early to refresh.
    public func startAutomaticRefresh(_ policy: AutomaticRefresh = .standard) {
        apply(.automaticRefreshStarted(policy))
    }

    /// Stops proactive refresh; a refresh already sent completes.
    public func stopAutomaticRefresh() {
        apply(.automaticRefreshStopped)
    }

    /// Whether proactive refresh is running.
    public var isRefreshingAutomatically: Bool { lifecycle.automaticRefresh.running != nil }

    /// Starts the checks of a policy on the options' clock, replacing running ones: the first one interval from
    /// now, each next one an interval after the previous one (and the refresh it started) finished.
    func runAutomaticChecks(_ policy: AutomaticRefresh) {
        automaticRefreshTask?.cancel()
        let clock = options.clock
        let first = clock.now.addingTimeInterval(policy.interval.timeInterval)
        automaticRefreshTask = Task { [weak self] in
            var deadline = first
            while !Task.isCancelled {
                do {
                    try await clock.sleep(until: deadline)
                } catch {
                    return
                }
                guard let self, let next = await self.automaticCheck() else { return }
                deadline = next
            }
        }
    }

    /// One check: refreshes a refreshable session whose access token expires within the policy's margin.
    /// - Returns: When the next check is due, or `nil` when the checks were stopped.
    func automaticCheck() async -> Date? {
        if apply(.clockTicked(now: now())).step == .refreshAutomatically {
            do {
                _ = try await currentSession(forceRefresh: true)
            } catch {
                log(
                    .info,
                    "The automatic refresh failed (\(error.code.rawValue)); \(error.kind == .rejected ? "signed out" : "retrying at the next check")."
                )
            }
        }
        guard case .scheduleAutomaticCheck(let deadline)? = apply(.automaticCheckFinished(now: now())).step else {
            return nil
        }
        return deadline
    }
}
