import Foundation
@_spi(Generated) import LatchkeyTesting
import Observation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// Issue 27, item 3: one model for `@StateObject` and for Observation. What Combine's `objectWillChange` and
/// Observation's `willSet` are told is the notifier's announcement, recorded here through its test hook.
@Suite("State: AuthModel announces each change once, before it happens", timeLimit(minutes: 1))
@MainActor
struct AuthModelChangeTests {
    /// The announcements, each with the property's value when it was made (so: before the change).
    private final class Announcements {
        var entries: [String] = []
    }

    private static func record(_ model: AuthModel) -> Announcements {
        let announcements = Announcements()
        model.notifier.willChange = { [unowned model] keyPath in
            let entry =
                switch keyPath {
                case \AuthModel.state: "state was \(model.state)"
                case \AuthModel.isSigningIn: "isSigningIn was \(model.isSigningIn)"
                case \AuthModel.lastError: "lastError was \(model.lastError?.code.rawValue ?? "nil")"
                default: "unknown \(keyPath)"
                }
            announcements.entries.append(entry)
        }
        return announcements
    }

    @Test("restore, a failed sign-in, a sign-out: one announcement per change, none for an unchanged value")
    func announcements() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let started = Gate()
        let release = Gate()
        let model = AuthModel(client: harness.client) { _ throws(AuthError) in
            started.raise()
            await release.wait()
            throw AuthError(.invalidCredentials, "Wrong password.")
        }
        let announcements = Self.record(model)

        #expect(await model.restore() == .signedOut)
        #expect(model.state == .signedOut)
        #expect(announcements.entries == ["state was loading"])

        // Starting: isSigningIn changes; lastError is cleared but was already empty, so nothing for it.
        let attempt = Task { await model.signIn() }
        await started.wait()
        #expect(model.isSigningIn)
        #expect(announcements.entries.dropFirst() == ["isSigningIn was false"])
        release.raise()
        await attempt.value
        #expect(model.lastError?.code == .invalidCredentials)
        #expect(announcements.entries.dropFirst(2) == ["isSigningIn was true", "lastError was nil"])

        // signOut clears the error (one announcement); the state stays signedOut (none).
        await model.signOut()
        #expect(announcements.entries.dropFirst(4) == ["lastError was invalid_credentials"])
        // resetTokens clears an empty error and keeps signedOut: nothing at all.
        await model.resetTokens()
        #expect(model.state == .signedOut)
        #expect(announcements.entries.count == 5)
    }

    @Test("Observation: a tracked read is told of its change, and not of an unchanged value")
    func observation() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let model = AuthModel(client: harness.client) { _ throws(AuthError) in
            throw AuthError(.invalidCredentials, "Wrong password.")
        }
        await model.restore()
        let changed = Watched(0)
        withObservationTracking {
            _ = model.lastError
        } onChange: {
            changed.update { $0 += 1 }
        }
        await model.resetTokens()  // lastError nil -> nil
        #expect(changed.value == 0)
        await model.signIn()  // lastError nil -> invalid_credentials
        #expect(changed.value == 1)
        #expect(model.lastError?.code == .invalidCredentials)
    }

    @Test("restore() shows the restored state at once; the stream's older values do not take it back")
    func restore() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let model = AuthModel(client: harness.client)
        #expect(model.state == .loading)
        #expect(await model.restore() == .signedOut)
        #expect(model.state == .signedOut)
        await Task.yield()
        #expect(model.state == .signedOut)
    }
}
