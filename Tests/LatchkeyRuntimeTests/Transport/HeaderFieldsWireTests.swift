import Foundation
@_spi(Generated) import LatchkeyTesting
import LatchkeyVocabulary
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// Header fields keep repeated fields and never send a default beside an override (issue 19).
@Suite("HTTP header fields on the wire")
struct HeaderFieldsWireTests {
    @Test("a response with two WWW-Authenticate fields keeps both challenges", arguments: TransportKind.allCases)
    func repeatedResponseFields(kind: TransportKind) async throws {
        let transport = kind.make()
        let server = try TestHTTPServer { _ in
            TestResponse(
                status: 401,
                headers: [
                    ("WWW-Authenticate", #"Bearer realm="api", error="invalid_token""#),
                    ("WWW-Authenticate", #"Basic realm="api""#),
                ])
        }
        defer { server.stop() }
        let response = try await transport.send(
            TransportRequest(method: "GET", url: server.url("/me"), timeout: 30))
        #expect(response.status == 401)
        let challenges = response.headerFields.values(for: "www-authenticate").joined(separator: ", ")
        #expect(challenges.contains(#"Bearer realm="api", error="invalid_token""#))
        #expect(challenges.contains(#"Basic realm="api""#))
        #expect(server.requests.count == 1)
    }

    @Test(
        "a 401 with a Basic challenge comes back as the 401, with its body, at once (not at the deadline)",
        arguments: TransportKind.allCases)
    func basicChallenge(kind: TransportKind) async throws {
        let transport = kind.make()
        let server = try TestHTTPServer { _ in
            TestResponse(
                status: 401,
                headers: [("WWW-Authenticate", #"Basic realm="token""#), ("Content-Type", "application/json")],
                body: Data(#"{"error":"invalid_client"}"#.utf8))
        }
        defer { server.stop() }
        let response = try await transport.send(
            TransportRequest(
                method: "POST", url: server.url("/token"), headers: [("Authorization", "Basic YTpi")],
                body: Data("grant_type=refresh_token".utf8), timeout: 30))
        #expect(response.status == 401)
        #expect(response.header("WWW-Authenticate") == #"Basic realm="token""#)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"error":"invalid_client"}"#)
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.header("Authorization") == "Basic YTpi")
    }

    @Test("a response built from fields keeps every repeated field, in order")
    func responseFromFields() {
        let response = TransportResponse(
            status: 401, headerFields: ["WWW-Authenticate": "Bearer", "Content-Type": "x", "www-authenticate": "Basic"])
        #expect(response.headerFields.values(for: "WWW-Authenticate") == ["Bearer", "Basic"])
        #expect(response.header("www-AUTHENTICATE") == "Bearer")
        #expect(response.headers["www-authenticate"] == "Bearer")
        #expect(response.headerFields.count == 3)
    }

    @Test(
        "a descriptor's Accept replaces the default: exactly one Accept arrives at the server",
        arguments: TransportKind.allCases)
    func descriptorAcceptReplacesTheDefault(kind: TransportKind) async throws {
        let transport = kind.make()
        let server = try TestHTTPServer { _ in .json(["ok": true]) }
        defer { server.stop() }
        let spec = RequestSpec(
            method: "GET", url: ValueTemplate(literal: server.url("/user").absoluteString),
            headers: [ParameterSpec("accept", .string(ValueTemplate(literal: "application/vnd.github+json")))])
        let builder = RequestBuilder(provider: AcmeSpec.make(), userAgent: "latchkey-tests")
        let scope = VariableScope(
            inputs: ["baseURL": "https://acme.example", "clientID": "app", "apiKey": "pk"], discovered: [:], derived: []
        )
        let request = try builder.build(spec, scope: scope)
        _ = try await transport.send(request)

        let received = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(received.headerValues("Accept") == ["application/vnd.github+json"])
        #expect(received.headerValues("User-Agent") == ["latchkey-tests"])
        #expect(received.headerValues("apikey") == ["pk"])
    }

    @Test("without a descriptor Accept the default is sent once", arguments: TransportKind.allCases)
    func defaultAccept(kind: TransportKind) async throws {
        let transport = kind.make()
        let server = try TestHTTPServer { _ in .json(["ok": true]) }
        defer { server.stop() }
        let spec = RequestSpec(method: "GET", url: ValueTemplate(literal: server.url("/user").absoluteString))
        let builder = RequestBuilder(provider: AcmeSpec.make(), userAgent: nil)
        let scope = VariableScope(
            inputs: ["baseURL": "https://acme.example", "clientID": "app", "apiKey": "pk"], discovered: [:], derived: []
        )
        _ = try await transport.send(try builder.build(spec, scope: scope))
        let received = try #require(server.requests.first)
        #expect(received.headerValues("Accept") == ["application/json"])
    }

    @Test("fields compare names case-insensitively, keep order, and never show a value")
    func fieldList() {
        var fields: HTTPHeaderFields = [("Accept", "a"), ("X-Trace", "1"), ("accept", "b")]
        #expect(fields.values(for: "ACCEPT") == ["a", "b"])
        fields.set("Accept", "c")
        #expect(fields.map(\.name) == ["X-Trace", "Accept"])
        fields["x-trace"] = nil
        #expect(!fields.contains("X-Trace"))
        fields.append("Authorization", "Bearer secret-token")
        #expect(!String(describing: fields).contains("secret-token"))
        #expect(!String(reflecting: fields).contains("secret-token"))
        #expect(HTTPHeaderFields.names("Content-Type", match: "content-type"))
        #expect(!HTTPHeaderFields.names("Content-Type", match: "Content-Typ"))
    }
}
