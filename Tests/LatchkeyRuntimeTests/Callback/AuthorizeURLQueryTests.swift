import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Callback: an authorization endpoint with a query of its own")
struct AuthorizeURLQueryTests {
    @Test("the endpoint's own parameters are kept, ours replace duplicates, no name is sent twice")
    func mergedQuery() async throws {
        let spec = AcmeSpec.make(
            authorizeURL: AcmeSpec.template("{baseURL}/authorize?p=b2c_1_signin&client_id=stale&redirect_uri=old"))
        let harness = try AcmeHarness(spec: spec)
        defer { harness.server.stop() }
        let request = try await harness.client.prepareAuthorization()
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let names = items.map(\.name)
        #expect(names.count == Set(names).count, "\(names)")
        let values = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        #expect(values["p"] == "b2c_1_signin")
        #expect(values["client_id"] == "acme-app")
        #expect(values["redirect_uri"] == "dev.acme.app://auth-callback")
        #expect(values["state"] == request.state)
        #expect(names.first == "p", "the endpoint's own parameter stays first")
        #expect(request.url.path == "/authorize")
    }
}
