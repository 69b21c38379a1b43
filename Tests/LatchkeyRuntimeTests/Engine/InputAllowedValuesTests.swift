import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// An input's allowed values (a descriptor input's `values`): a value outside them, from the app or the
/// environment, is refused when the client is created, before any request; one of them is used as it is.
@Suite("Engine: input allowed values")
struct InputAllowedValuesTests {
    static func spec() -> ProviderSpec {
        var spec = AcmeSpec.make()
        spec.inputs.append(
            InputSpec(
                name: "region", isRequired: false, defaultValue: "us", environmentKey: "ACME_REGION",
                allowedValues: ["us", "eu-west-1"]))
        return spec
    }

    private func makeClient(
        _ values: [String: String], environment: [String: String] = [:], transport: any HTTPTransport
    ) throws(AuthError) -> AuthClient {
        let defaults = ["baseURL": "https://acme.example/", "clientID": "acme-app", "apiKey": "pk_live_123"]
        return try AuthClient(
            provider: Self.spec(),
            configuration: ProviderConfiguration(values: defaults.merging(values) { _, new in new }),
            options: AuthClientOptions(
                transport: transport, store: InMemorySessionStore(), environment: { environment[$0] }))
    }

    @Test("a value outside the list, from the app or the environment, is invalid_configuration with no request")
    func refused() throws {
        let server = try TestHTTPServer { _ in .json(["access_token": "x"]) }
        defer { server.stop() }
        let transport = URLSessionHTTPTransport()
        for (values, environment) in [(["region": "ap"], [:]), ([:], ["ACME_REGION": "EU-WEST-1"])] {
            let error = #expect(throws: AuthError.self) {
                try makeClient(
                    values.merging(["baseURL": server.baseURL.absoluteString]) { a, _ in a },
                    environment: environment, transport: transport)
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.contains("'region' must be one of: us, eu-west-1") == true)
        }
        #expect(server.requests.isEmpty)
    }

    @Test("a listed value from the app or the environment, or the default, is accepted")
    func accepted() throws {
        let transport = URLSessionHTTPTransport()
        _ = try makeClient(["region": "eu-west-1"], transport: transport)
        _ = try makeClient([:], environment: ["ACME_REGION": "eu-west-1"], transport: transport)
        _ = try makeClient([:], transport: transport)
    }
}
