import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The examples of the testing article and of RestoringASession's "Several accounts at once", run as written
/// against the simulator (a fixed-host provider: nothing reaches github.com).
@Suite("Documented examples: fixed-host providers on the simulator, several accounts at once")
struct DocumentedExampleTests {
    @Test("GitHub's browser sign-in through simulator.transport and simulator.browser")
    func gitHubBrowserSignIn() async throws {
        let simulator = try ProviderSimulator(simulating: GitHubClient.self)
        defer { simulator.stop() }
        let github = try GitHubClient(
            clientID: "demo-client", redirectURI: URL(string: "dev.example.test://callback")!,
            clientSecret: "test-only-secret",
            options: AuthClientOptions(transport: simulator.transport, store: InMemorySessionStore()))
        let session = try await github.signInWithBrowser(using: simulator.browser)
        #expect(session.user != nil)
        #expect(simulator.requests(to: .authorize).count == 1)
    }

    @Test("two accounts, two store keys, one store: each restores its own session, one signs out alone")
    func severalAccounts() async throws {
        let simulator = try ProviderSimulator(simulating: GitHubClient.self)
        defer { simulator.stop() }
        let store = InMemorySessionStore()
        func client(for account: String) throws -> GitHubClient {
            try GitHubClient(
                clientID: "demo-client",
                options: AuthClientOptions(
                    transport: simulator.transport, store: store, storeKey: "github.account.\(account)", sleep: { _ in }
                ))
        }
        let work = try client(for: "work")
        let personal = try client(for: "personal")
        let workSession = try await work.completeDeviceAuthorization(try await work.startDeviceAuthorization())
        let personalSession = try await personal.completeDeviceAuthorization(
            try await personal.startDeviceAuthorization())
        #expect(workSession.accessToken != personalSession.accessToken)

        let relaunchedWork = try client(for: "work")
        guard case .signedIn = await relaunchedWork.restore() else {
            Issue.record("the work account was not restored")
            return
        }
        #expect(await relaunchedWork.cachedSession?.accessToken == workSession.accessToken)
        try await personal.signOut()
        #expect(try await store.load(key: "github.account.personal") == nil)
        #expect(try await store.load(key: "github.account.work") != nil)
        let personalAgain = try client(for: "personal")
        #expect(await personalAgain.restore() == .signedOut)
    }
}
