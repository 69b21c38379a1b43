import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// A descriptor's `User-Agent` header is sent as written: `AuthClientOptions.userAgent` is only the default.
@Suite("Engine: a descriptor's User-Agent on the wire")
struct DescriptorUserAgentTests {
    @Test("a User-Agent in the descriptor's headers replaces the options' one on every request, sent once")
    func descriptorUserAgentWins() async throws {
        var spec = AcmeSpec.make()
        spec.commonHeaders.append(ParameterSpec("User-Agent", AcmeSpec.string("AcmeApp/2 ({clientID})")))
        let harness = try AcmeHarness(spec: spec)
        defer { harness.server.stop() }
        _ = try await harness.signIn()
        _ = try await harness.client.currentSession(forceRefresh: true)

        let requests = harness.server.requests
        try #require(requests.count == 2)
        for request in requests {
            #expect(request.headerValues("User-Agent") == ["AcmeApp/2 (acme-app)"], "\(request.path)")
            #expect(request.header("apikey") == "pk_live_123")
        }
    }

    @Test("without one, the options' User-Agent is sent")
    func optionsUserAgentIsTheDefault() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        _ = try await harness.signIn()
        let request = try #require(harness.server.requests.first)
        #expect(request.headerValues("User-Agent") == ["LatchkeyTests/1"])
    }
}
