import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Pending sign-ins are bound to their client like sessions: two clients given the same explicit `storeKey`
/// never complete each other's pending sign-in.
@Suite("Callback: a pending sign-in is bound to the client that started it")
struct PendingSignInBindingTests {
    /// A client of the harness's server with a client id, on a store under an explicit, shared key.
    private static func client(_ harness: AcmeHarness, clientID: String) throws -> AuthClient {
        var options = AcmeHarness.options(
            harness.transport, harness.store, harness.clock, harness.logs, leeway: .seconds(60),
            random: SystemRandomSource())
        options.storeKey = "shared"
        return try AuthClient(
            provider: harness.spec,
            configuration: AcmeHarness.configuration(
                harness.server, values: ["clientID": clientID], redirectURI: AcmeHarness.redirect),
            options: options)
    }

    @Test("another client id on the same explicit storeKey sees no pending sign-in; the owner completes it")
    func otherClientCannotCompleteIt() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let owner = try Self.client(harness, clientID: "acme-app")
        let stranger = try Self.client(harness, clientID: "acme-other")
        #expect(owner.storeKey == stranger.storeKey)
        let request = try await owner.prepareAuthorization()
        #expect(try await harness.store.load(key: owner.storeKey + ".pending") != nil, "the pending sign-in is stored")
        let callback = URL(string: "dev.acme.app://auth-callback?code=good-code&state=\(request.state)")!

        do {
            try await stranger.handleCallback(callback)
            Issue.record("another client completed the pending sign-in")
        } catch {
            #expect(error.code == .invalidCallback, "no sign-in of this client is waiting")
        }
        #expect(harness.requests("/oauth/token").isEmpty, "the stranger exchanged the owner's code")
        #expect(!stranger.state.isSignedIn)
        #expect(await stranger.cachedSession == nil)

        // The owner's pending sign-in is still there, and completes.
        let session = try await owner.handleCallback(callback)
        #expect(owner.state.isSignedIn)
        #expect(harness.requests("/oauth/token").count == 1)
        #expect(harness.requests("/oauth/token").first?.formBody["client_id"] == "acme-app")
        #expect(await owner.cachedSession == session)
    }
}
