import Foundation
@_spi(Generated) import LatchkeyTesting
import LatchkeyVocabulary
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

@Suite("Engine: request building")
struct EngineRequestBuilderTests {
    private let scope = VariableScope(
        inputs: ["baseURL": "https://acme.example", "clientID": "app id", "apiKey": "pk"], discovered: ["x": "1"],
        derived: [ParameterSpec("authBase", AcmeSpec.string("{baseURL}/auth"))])

    @Test("form bodies percent-encode everything but unreserved characters")
    func formEncoding() throws {
        let spec = RequestSpec(
            method: "post", url: AcmeSpec.template("{authBase}/token"), encoding: .form,
            body: [
                ParameterSpec("v", AcmeSpec.string("{value}")), ParameterSpec("flag", .bool(true)),
                ParameterSpec("n", .number("12")), ParameterSpec("missing", AcmeSpec.string("{absent}")),
            ])
        let request = try RequestBuilder(provider: AcmeSpec.make(), userAgent: nil)
            .build(spec, scope: scope.adding(text: ["value": "a b+c/é~-._*"]))
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://acme.example/auth/token")
        #expect(String(decoding: request.body ?? Data(), as: UTF8.self) == "v=a%20b%2Bc%2F%C3%A9~-._%2A&flag=true&n=12")
        #expect(request.header("apikey") == "pk")
    }

    @Test("a nested JSON object whose members are all left out is left out; one written as {} is sent")
    func emptyNestedObjects() throws {
        let spec = RequestSpec(
            method: "POST", url: AcmeSpec.template("{baseURL}/signup"), encoding: .json,
            body: [
                ParameterSpec("meta", .object([.init("captcha_token", AcmeSpec.string("{captchaToken}"))])),
                ParameterSpec("literal", .object([])), ParameterSpec("data", AcmeSpec.string("{data}")),
            ])
        let builder = RequestBuilder(provider: AcmeSpec.make(), userAgent: nil)
        func body(_ variables: [String: JSON?]) throws -> JSON? {
            JSON(data: try builder.build(spec, scope: scope.adding(variables)).body ?? Data())
        }
        #expect(try body([:]) == .object(["literal": .object([:])]))
        #expect(
            try body(["captchaToken": .string("c-1"), "data": .object(["plan": .string("free")])])
                == .object([
                    "meta": .object(["captcha_token": .string("c-1")]), "literal": .object([:]),
                    "data": .object(["plan": .string("free")]),
                ]))
    }

    @Test("the builder leaves client authentication to the pipeline (ClientAuthenticationStage)")
    func clientAuthenticationIsAStage() throws {
        let spec = RequestSpec(
            method: "POST", url: AcmeSpec.template("{baseURL}/t"), encoding: .form,
            body: [ParameterSpec("client_id", AcmeSpec.string("{clientID}"))], clientAuthentication: .basic)
        let built = try RequestBuilder(provider: AcmeSpec.make(), userAgent: nil).build(spec, scope: scope)
        #expect(built.header("Authorization") == nil)
        #expect(String(decoding: built.body ?? Data(), as: UTF8.self) == "client_id=app%20id")
    }

    @Test(
        "URLs must be https or loopback http after filling",
        arguments: [
            "http://acme.example/x", "ftp://acme.example", "/relative", "https://user@acme.example/x",
        ])
    func urlPolicy(url: String) throws {
        let spec = RequestSpec(method: "GET", url: ValueTemplate(literal: url))
        let builder = RequestBuilder(provider: AcmeSpec.make(), userAgent: nil)
        do {
            _ = try builder.build(spec, scope: scope)
            Issue.record("expected \(url) to be refused")
        } catch {
            #expect(error.code == .invalidConfiguration)
        }
    }

    @Test("a template with a missing variable inside text is invalid_configuration")
    func missingVariable() throws {
        let spec = RequestSpec(method: "GET", url: AcmeSpec.template("{nowhere}/x"))
        let builder = RequestBuilder(provider: AcmeSpec.make(), userAgent: nil)
        #expect(throws: AuthError.self) { try builder.build(spec, scope: scope) }
    }

    @Test(
        "a query merges into an endpoint: appended, or replacing the endpoint's own parameters of the same name",
        arguments: [
            ("https://idp.example/token", "https://idp.example/token?grant_type=password&scope=a%20b"),
            (
                "http://127.0.0.1:8080/auth/v1/token",
                "http://127.0.0.1:8080/auth/v1/token?grant_type=password&scope=a%20b"
            ),
            ("https://idp.example/token?p=b2c", "https://idp.example/token?p=b2c&grant_type=password&scope=a%20b"),
            (
                "https://idp.example/token?grant_type=x&p=1",
                "https://idp.example/token?p=1&grant_type=password&scope=a%20b"
            ),
            ("https://idp.example/token?", "https://idp.example/token?grant_type=password&scope=a%20b"),
            ("https://idp.example/token#f", "https://idp.example/token?grant_type=password&scope=a%20b#f"),
            ("https://idp.example/tökén", "https://idp.example/tökén?grant_type=password&scope=a%20b"),
        ])
    func merging(endpoint: String, merged: String) {
        let query = [(name: "grant_type", value: "password"), (name: "scope", value: "a b")]
        #expect(RequestBuilder.merging(query, into: endpoint) == merged)
    }
}
