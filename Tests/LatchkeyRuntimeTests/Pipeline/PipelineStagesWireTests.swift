import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import LatchkeyVocabulary
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// The request pipeline's cross-cutting stages, each on the wire: a request built from a descriptor request
/// goes through ``RequestPipeline/standard(provider:configuration:options:)`` to a server on 127.0.0.1.
@Suite("Pipeline: every cross-cutting stage on the wire", timeLimit(minutes: 2))
struct PipelineStagesWireTests {
    private static let s = AcmeSpec.string

    /// A provider with the given extra token parameters.
    private static func provider(extra: [ParameterSpec] = []) -> ProviderSpec {
        ProviderSpec(
            name: "stages", displayName: "Stages",
            inputs: [InputSpec(name: "baseURL", kind: .url), InputSpec(name: "clientID"), InputSpec(name: "apiKey")],
            extraTokenParameters: extra)
    }

    /// Builds `spec` and sends it through the standard pipeline; returns what the server received (nothing when
    /// a stage refused the request) and the error, if any.
    private func send(
        _ spec: RequestSpec, provider: ProviderSpec = provider(), secret: String? = nil, isTokenRequest: Bool = true,
        additional: [String: String] = [:], logs: Locked<[String]> = Locked([])
    ) async throws -> (request: RecordedRequest?, error: AuthError?) {
        let server = try TestHTTPServer { _ in .json(["ok": true]) }
        defer { server.stop() }
        var options = AuthClientOptions(logger: { record in logs.withLock { $0.append(record.message) } })
        options.additionalTokenParameters = additional
        let pipeline = try RequestPipeline.standard(
            provider: provider, configuration: ProviderConfiguration(values: [:], clientSecret: secret),
            options: options)
        let scope = VariableScope(
            inputs: ["baseURL": server.baseURL.absoluteString, "clientID": "app id", "apiKey": "pk"], discovered: [:],
            derived: [])
        let request = try RequestBuilder(provider: provider, userAgent: nil).build(spec, scope: scope)
        var context = RequestContext(provider: provider.name)
        context.descriptorRequest = DescriptorRequest(
            name: "token", spec: spec, scope: scope, isTokenRequest: isTokenRequest)
        do {
            _ = try await pipeline.send(request, context: context)
        } catch {
            return (server.requests.first, error)
        }
        return (server.requests.first, nil)
    }

    private func token(
        _ encoding: BodyEncoding, _ authentication: ClientAuthenticationMethod, body: [ParameterSpec]? = nil
    ) -> RequestSpec {
        RequestSpec(
            method: encoding == .none ? "GET" : "POST", url: AcmeSpec.template("{baseURL}/token"), encoding: encoding,
            body: body ?? [ParameterSpec("grant_type", Self.s("x")), ParameterSpec("client_id", Self.s("{clientID}"))],
            clientAuthentication: authentication)
    }

    @Test("client authentication: basic is a Basic header of the percent-encoded id and run-time secret")
    func basic() async throws {
        let (request, error) = try await send(token(.form, .basic), secret: "s3:cr/t")
        #expect(error == nil)
        #expect(request?.header("Authorization") == "Basic " + Data("app%20id:s3%3Acr%2Ft".utf8).base64EncodedString())
        #expect(request?.bodyText == "grant_type=x&client_id=app%20id")
    }

    @Test("client authentication: post adds client_secret (and client_id when absent) in the request's encoding")
    func post() async throws {
        let form = try await send(token(.form, .post), secret: "s3:cr/t").request
        #expect(form?.bodyText == "grant_type=x&client_id=app%20id&client_secret=s3%3Acr%2Ft")
        #expect(form?.header("Authorization") == nil)
        let noID = try await send(token(.form, .post, body: [ParameterSpec("grant_type", Self.s("x"))]), secret: "sec")
        #expect(noID.request?.bodyText == "grant_type=x&client_id=app%20id&client_secret=sec")
        let json = try await send(token(.json, .post), secret: "sec").request
        #expect(json?.bodyText == #"{"client_id":"app id","client_secret":"sec","grant_type":"x"}"#)
        let query = try await send(token(.none, .post), secret: "sec").request
        #expect(query?.path == "/token")
        #expect(query?.query("client_secret") == "sec")
        #expect(query?.query("grant_type") == "x")
    }

    @Test("client authentication: *_if_secret sends none without a secret; basic without one sends nothing at all")
    func optionalAndMissing() async throws {
        let optional = try await send(token(.form, .basicIfSecret)).request
        #expect(optional?.header("Authorization") == nil)
        #expect(optional?.bodyText == "grant_type=x&client_id=app%20id")
        let empty = try await send(token(.form, .basicSecretOrEmpty)).request
        #expect(empty?.header("Authorization") == "Basic " + Data("app%20id:".utf8).base64EncodedString())
        let (request, error) = try await send(token(.form, .basic))
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.provider == "stages")
        #expect(request == nil)
    }

    @Test("extra token parameters follow the request's own (before client authentication), on token requests only")
    func extraParameters() async throws {
        let provider = Self.provider(extra: [ParameterSpec("audience", Self.s("{apiKey}"))])
        let form = try await send(
            token(.form, .post), provider: provider, secret: "sec", additional: ["resource": "r 1"]
        ).request
        #expect(
            form?.bodyText == "grant_type=x&client_id=app%20id&audience=pk&resource=r%201&client_secret=sec")
        let json = try await send(token(.json, .none), provider: provider, additional: ["resource": "r1"]).request
        #expect(json?.bodyText == #"{"audience":"pk","client_id":"app id","grant_type":"x","resource":"r1"}"#)
        let query = try await send(token(.none, .none), provider: provider).request
        #expect(query?.query("audience") == "pk")
        let notToken = try await send(
            token(.form, .none), provider: provider, isTokenRequest: false, additional: ["resource": "r1"]
        ).request
        #expect(notToken?.bodyText == "grant_type=x&client_id=app%20id")
    }

    @Test("the request log names method, host, path and request, never the query or body; a retry says so")
    func requestLog() async throws {
        let logs = Locked<[String]>([])
        _ = try await send(token(.none, .post), secret: "query-secret-123", logs: logs)
        let lines = logs.withLock { $0 }
        #expect(lines == ["GET 127.0.0.1/token (token)"])
        #expect(!lines.contains { $0.contains("query-secret-123") || $0.contains("app") })
    }

    @Test("the JWKS and PASETO key sets are fetched through the pipeline (the request log shows them)")
    func keySetsThroughPipeline() async throws {
        let server = try TestHTTPServer { _ in .json(["keys": [] as [Any]]) }
        defer { server.stop() }
        let logs = Locked<[String]>([])
        let provider = ProviderSpec(
            name: "keys", displayName: "Keys", inputs: [InputSpec(name: "baseURL", kind: .url)],
            tokens: TokenSpec(
                accessTokenFormat: .pasetoV4Public, validatesIDToken: true,
                jwksURL: AcmeSpec.template("{baseURL}/jwks"), accessTokenKeysURL: AcmeSpec.template("{baseURL}/paseto"))
        )
        let client = try AuthClient(
            provider: provider,
            configuration: ProviderConfiguration(values: ["baseURL": server.baseURL.absoluteString]),
            options: AuthClientOptions(
                store: InMemorySessionStore(), logger: { record in logs.withLock { $0.append(record.message) } },
                environment: { _ in nil }))
        _ = try await client.jwks().keySet()
        _ = try? await client.accessTokenKeyCache().keySet()
        #expect(server.requests.map(\.path) == ["/jwks", "/paseto"])
        let lines = logs.withLock { $0 }
        #expect(lines.contains("GET 127.0.0.1/jwks"))
        #expect(lines.contains("GET 127.0.0.1/paseto"))
    }

    @Test("the header rules stage refuses a header that would smuggle another, after every stage; nothing is sent")
    func headerRules() async throws {
        let server = try TestHTTPServer { _ in .json(["ok": true]) }
        defer { server.stop() }
        let handed = Locked(0)
        let pipeline = try RequestPipeline.standard(
            provider: Self.provider(), configuration: ProviderConfiguration(values: [:]),
            options: AuthClientOptions(transport: CountingTransport(count: handed)))
        let request = TransportRequest(
            method: "GET", url: server.url("/resource"), headers: [("X-Note", "a\r\nX-Injected: 1")])
        var caught: AuthError?
        do { _ = try await pipeline.send(request, context: RequestContext(provider: "stages")) } catch {
            caught = error
        }
        #expect(caught?.code == .invalidRequest)
        #expect(caught?.provider == "stages")
        #expect(server.requests.isEmpty)
        #expect(handed.withLock { $0 } == 0, "the app's transport was handed the request")
    }
}

/// An app's transport: counts the requests it is handed and sends them with the default one.
private struct CountingTransport: HTTPTransport {
    let count: Locked<Int>
    let base = AuthClientOptions.defaultTransport()

    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        count.withLock { $0 += 1 }
        return try await base.send(request)
    }
}
