import Foundation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// The session lifecycle's transition table, without any I/O: every reachable state crossed with every event.
@Suite("Lifecycle: transition table")
struct SessionLifecycleTableTests {
    @Test(
        "every state × every event: the new state and the effects, in order",
        arguments: LifecycleState.allCases, LifecycleStimulus.allCases)
    func transition(state: LifecycleState, stimulus: LifecycleStimulus) {
        var lifecycle = state.lifecycle
        let before = LifecycleSnapshot(lifecycle)
        let effects = lifecycle.handle(stimulus.event(for: lifecycle))
        let (expectedState, expectedEffects) = LifecycleExpectations.expected(stimulus, from: before)
        #expect(LifecycleSnapshot(lifecycle) == expectedState)
        #expect(effects == expectedEffects)
    }

    @Test(
        "late results (a generation behind) change nothing but the lock count, and store or publish nothing",
        arguments: LifecycleState.allCases,
        [
            LifecycleStimulus.installFencedStale, .commitTurnStale, .commitWrittenStale, .lockFailedStale,
            .storeReadStale, .refreshFailedStale, .reuseStale,
        ])
    func lateResultsAreDropped(state: LifecycleState, stimulus: LifecycleStimulus) {
        var lifecycle = state.lifecycle
        let before = LifecycleSnapshot(lifecycle)
        let effects = lifecycle.handle(stimulus.event(for: lifecycle))
        #expect(LifecycleSnapshot(lifecycle) == before)
        for effect in effects {
            switch effect {
            case .dropLateResult, .deliver, .fail, .log: continue
            default: Issue.record("a late \(stimulus) caused \(effect)")
            }
        }
        #expect(effects.first == .dropLateResult || effects.contains(.fail(.lateSignIn)))
    }

    @Test(
        "the fast path's read agrees with a request for the session: a fresh session is delivered at once, unchanged",
        arguments: LifecycleState.allCases,
        [LifecycleFixtures.fresh, LifecycleFixtures.expiring, LifecycleFixtures.past])
    func freshSessionIsTheImmediateAnswer(state: LifecycleState, now: Date) {
        var lifecycle = state.lifecycle
        let fresh = lifecycle.freshSession(at: now)
        let held = lifecycle.session
        let before = LifecycleSnapshot(lifecycle)
        let effects = lifecycle.handle(.sessionRequested(forceRefresh: false, now: now))
        if let fresh {
            #expect(effects == [.deliver(fresh)])
            #expect(LifecycleSnapshot(lifecycle) == before)
        }
        // Ten seconds after sign-in every state holding a session has a fresh one; long after expiry none has.
        if now == LifecycleFixtures.fresh { #expect((fresh != nil) == (held != nil)) }
        if now == LifecycleFixtures.past { #expect(fresh == nil) }
    }

    @Test("the states are distinct and reachable", arguments: LifecycleState.allCases)
    func statesAreDistinct(state: LifecycleState) {
        let others = LifecycleState.allCases.filter { $0 != state }
        #expect(!others.contains { LifecycleSnapshot($0.lifecycle) == LifecycleSnapshot(state.lifecycle) })
    }

    @Test("one refresh in flight: a second caller joins it; the flight's end lets the next caller start another")
    func oneFlight() {
        var lifecycle = LifecycleState.signedIn.lifecycle
        let first = lifecycle.handle(.sessionRequested(forceRefresh: true, now: LifecycleFixtures.fresh))
        #expect(first == [.startRefresh(flightID: 1, base: LifecycleFixtures.current, generation: 0)])
        let second = lifecycle.handle(.sessionRequested(forceRefresh: true, now: LifecycleFixtures.fresh))
        #expect(second == [.joinRefresh(flightID: 1)])
        #expect(lifecycle.handle(.refreshFlightEnded(id: 1)).isEmpty)
        let third = lifecycle.handle(.sessionRequested(forceRefresh: true, now: LifecycleFixtures.fresh))
        #expect(third == [.startRefresh(flightID: 2, base: LifecycleFixtures.current, generation: 0)])
    }

    @Test("a refresh overtaken by a sign-out: its commit is dropped, nothing is stored or published")
    func refreshAfterSignOut() {
        var lifecycle = LifecycleState.refreshingUnderLock.lifecycle
        let flightGeneration = lifecycle.generation
        _ = lifecycle.handle(.sessionCleared(lockHeld: false))
        #expect(lifecycle.handle(.commitTurn(generation: flightGeneration)) == [.dropLateResult])
        let written = lifecycle.handle(
            .commitWritten(LifecycleFixtures.installed, generation: flightGeneration, storeError: nil))
        #expect(written == [.dropLateResult])
        #expect(lifecycle.session == nil)
        #expect(lifecycle.phase == .signedOut)
    }

    @Test("a configured automatic refresh starts once, when the session is first known, and a stop is not undone")
    func configuredAutomaticRefreshStartsOnce() {
        var rules = LifecycleFixtures.rules
        rules.automaticRefresh = LifecycleFixtures.policy
        var lifecycle = SessionLifecycle(rules: rules)
        #expect(lifecycle.handle(.restoreFinished(nil)).contains(.startAutomaticChecks(LifecycleFixtures.policy)))
        #expect(lifecycle.handle(.automaticRefreshStopped) == [.stopAutomaticChecks])
        _ = lifecycle.handle(.installRequested(fence: nil))
        let committed = lifecycle.handle(
            .commitWritten(LifecycleFixtures.installed, generation: lifecycle.generation, storeError: nil))
        #expect(!committed.contains(.startAutomaticChecks(LifecycleFixtures.policy)))
        #expect(lifecycle.automaticRefresh.running == nil)
    }
}
