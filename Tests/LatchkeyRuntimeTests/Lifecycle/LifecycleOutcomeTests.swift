import Foundation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// ``SessionLifecycle/Outcome`` is the one place the client interprets the lifecycle's effects: nothing the
/// lifecycle asks for may be lost on the way into its fixed shape.
@Suite("Lifecycle: outcome")
struct LifecycleOutcomeTests {
    /// One value of every effect.
    static let everyEffect: [SessionLifecycle.Effect] = [
        .publishState(.signedOut), .publishTokens(LifecycleFixtures.current),
        .commit(generation: 3, takesRefreshLock: true), .writeSession,
        .reportStoreFailure(LifecycleFixtures.diskFull), .removeStoredSession(takesRefreshLock: false),
        .startRefresh(flightID: 2, base: LifecycleFixtures.current, generation: 1), .joinRefresh(flightID: 2),
        .rereadStore, .sendRefresh(base: LifecycleFixtures.newer), .lookForNewerStoredSession,
        .deliver(LifecycleFixtures.installed), .fail(.nobodySignedIn), .dropLateResult,
        .startAutomaticChecks(LifecycleFixtures.policy), .stopAutomaticChecks,
        .scheduleAutomaticCheck(at: LifecycleFixtures.fresh), .refreshAutomatically, .log(.adoptedNewerSession),
    ]

    @Test("every effect has a field: an outcome built from it gives it back", arguments: everyEffect)
    func everyEffectIsKept(effect: SessionLifecycle.Effect) {
        let outcome = SessionLifecycle.Outcome([effect])
        #expect(outcome.effects == [effect])
        #expect(outcome != SessionLifecycle.Outcome([]))
    }

    @Test(
        "every state × every event: the outcome keeps every effect (at most one answer, one step, one removal)",
        arguments: LifecycleState.allCases, LifecycleStimulus.allCases)
    func transitionOutcomeKeepsEveryEffect(state: LifecycleState, stimulus: LifecycleStimulus) {
        var lifecycle = state.lifecycle
        let effects = lifecycle.handle(stimulus.event(for: lifecycle))
        let kept = SessionLifecycle.Outcome(effects).effects
        // Announcements keep their order; the rest has one slot each, so a second answer or step would be lost.
        #expect(kept.count == effects.count)
        // The same effects as a multiset (effects are Equatable, not Hashable).
        #expect(
            kept.allSatisfy { effect in kept.filter { $0 == effect }.count == effects.filter { $0 == effect }.count })
        #expect(kept.filter(\.isAnnouncement) == effects.filter(\.isAnnouncement))
    }
}

extension SessionLifecycle.Effect {
    /// Whether the client announces this effect at once (publishing, automatic checks, logging).
    fileprivate var isAnnouncement: Bool {
        switch self {
        case .publishState, .publishTokens, .startAutomaticChecks, .stopAutomaticChecks, .log, .dropLateResult: true
        case .commit, .writeSession, .reportStoreFailure, .removeStoredSession, .startRefresh, .joinRefresh,
            .rereadStore, .sendRefresh, .lookForNewerStoredSession, .deliver, .fail, .scheduleAutomaticCheck,
            .refreshAutomatically:
            false
        }
    }
}
