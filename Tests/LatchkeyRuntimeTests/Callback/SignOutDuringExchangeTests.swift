import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Callback: a sign-out during the code exchange wins")
struct SignOutDuringExchangeTests {
    @Test("signOut() while the token request is on the wire: the exchange's session is discarded, never stored")
    func signOutDuringExchange() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        await harness.client.restore()
        let held = HeldRoute()
        let backend = harness.backend
        backend.override("/oauth/token") { _ in
            await held.hold()
            return backend.tokens(rotating: nil)
        }
        let request = try await harness.client.prepareAuthorization()
        let url = URL(string: "dev.acme.app://auth-callback?code=good-code&state=\(request.state)")!
        let exchange = Task { try await harness.client.handleCallback(url) }
        await held.arrived()
        try await harness.client.signOut()
        #expect(harness.client.state == .signedOut)
        held.release()
        let result = await exchange.result
        #expect((result.failure as? AuthError)?.code == .loginCancelled)
        #expect(harness.client.state == .signedOut)
        #expect(await harness.client.cachedSession == nil)
        #expect(try await harness.store.load(key: "acme") == nil)
        #expect(harness.requests("/oauth/token").count == 1)
        #expect(harness.requests("/user").isEmpty)
        // A later sign-in works as usual.
        let again = try await harness.client.prepareAuthorization()
        backend.override("/oauth/token") { _ in backend.tokens(rotating: nil) }
        let session = try await harness.client.handleCallback(
            URL(string: "dev.acme.app://auth-callback?code=good-code&state=\(again.state)")!)
        #expect(harness.client.state.isSignedIn)
        #expect(await harness.client.cachedSession == session)
    }
}

extension Result {
    /// The error, or `nil` on success.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
