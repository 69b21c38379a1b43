import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

extension SessionLifecycle {
    /// A caller asks for the session: deliver it, join the refresh in flight, start one, or end an expired
    /// session that cannot be refreshed.
    mutating func sessionRequested(forceRefresh: Bool, now: Date) -> [Effect] {
        guard let current = session else { return [.fail(.nobodySignedIn)] }
        if !forceRefresh, !rules.isDue(current, at: now) { return [.deliver(current)] }
        if let flight { return [.joinRefresh(flightID: flight.id)] }
        guard rules.canRefresh, current.refreshToken != nil else {
            guard current.isExpired(at: now) else {
                return (forceRefresh ? [.log(.unrefreshableKept)] : []) + [.deliver(current)]
            }
            return clear(lockHeld: false) + [.fail(.expiredUnrefreshable)]
        }
        lastFlightID += 1
        flight = Flight(id: lastFlightID, generation: generation)
        return [.startRefresh(flightID: lastFlightID, base: current, generation: generation)]
    }

    /// The store was read again under the refresh lock: another process may have refreshed meanwhile.
    mutating func refreshStoreRead(
        _ result: Result<Session?, AuthError>, base: Session, generation expected: Int, now: Date
    ) -> [Effect] {
        guard isCurrentRefresh(expected) else { return discarded() }
        switch result {
        case .failure(let error):
            return [.fail(.error(error))]
        case .success(let stored?) where Self.isNewer(stored, than: base):
            phase = .signedIn(stored)
            let published = settled()
            guard rules.isDue(stored, at: now) else {
                return published + [.log(.adoptedNewerSession), .deliver(stored)]
            }
            return published + [.log(.adoptedExpiredSession), .sendRefresh(base: stored)]
        case .success:
            return [.sendRefresh(base: base)]
        }
    }

    /// The refresh failed: keep the session (transport), adopt another process's (reused token), or end it.
    mutating func refreshFailed(_ error: AuthError, answered: Bool, isReuse: Bool, generation expected: Int)
        -> [Effect]
    {
        guard isCurrentRefresh(expected) else { return discarded() }
        // An ID token that fails validation: the provider has most likely rotated the old refresh token out
        // already, and sending that one again would revoke the whole family (OpenID Connect Core §12.2).
        if answered, error.code == .invalidIDToken {
            return [.log(.refreshedIDTokenInvalid)] + clear(lockHeld: true) + [.fail(.error(error))]
        }
        guard error.kind == .rejected else { return [.fail(.error(error))] }
        if isReuse { return [.lookForNewerStoredSession] }
        return [.log(.refreshRejected(error.code))] + clear(lockHeld: true) + [.fail(.error(error))]
    }

    /// The store was read after the provider said the refresh token was already used.
    mutating func reuseStoreRead(_ stored: Session?, base: Session, rejection: AuthError, generation expected: Int)
        -> [Effect]
    {
        guard isCurrentRefresh(expected) else { return discarded() }
        if let stored, stored.refreshToken != base.refreshToken || stored.accessToken != base.accessToken,
            stored.subject == base.subject
        {
            phase = .signedIn(stored)
            return settled() + [.log(.adoptedAfterReuse), .deliver(stored)]
        }
        return [.log(.refreshRejected(rejection.code))] + clear(lockHeld: true) + [.fail(.error(rejection))]
    }

    /// Whether a stored session replaces the one in memory: other tokens, issued no earlier. A stored session
    /// issued earlier is this client's own older record (its last write failed) and must not replace it.
    static func isNewer(_ stored: Session, than current: Session) -> Bool {
        guard stored.accessToken != current.accessToken || stored.refreshToken != current.refreshToken else {
            return false
        }
        return stored.issuedAt >= current.issuedAt
    }
}
