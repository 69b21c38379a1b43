import LatchkeyDescriptor
import LatchkeyVocabulary
import Testing

/// Fallback references (`{a ?? b}`) and the `clientCredentials` / `endSession` flows.
@Suite struct ServerFlowsValidationTests {
    static func load(_ extra: String) -> DescriptorLoader.Result {
        let text = """
            {
              "formatVersion": 1,
              "name": "acme",
              "displayName": "Acme",
              "inputs": { "issuer": { "type": "url" }, "clientID": {}, "deviceEndpoint": { "type": "url", "required": false } },
              "discovery": { "type": "openid", "issuer": "{issuer}" },
              \(extra)
            }
            """
        return DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json")
    }

    @Test func fallbackParsesToAlternatives() throws {
        let template = try Template.parse("{discovered.device_authorization_endpoint??deviceEndpoint}/x")
        #expect(template.variables == ["discovered.device_authorization_endpoint", "deviceEndpoint"])
        #expect(template.description == "{discovered.device_authorization_endpoint ?? deviceEndpoint}/x")
        #expect(throws: Template.ParseError.self) { try Template.parse("{a ?? }") }
        #expect(throws: Template.ParseError.self) { try Template.parse("{a ?? b c}") }
    }

    @Test func fallbackAlternativesMustBeKnown() {
        let good = Self.load(
            #""requests": { "d": { "method": "POST", "url": "{discovered.device_authorization_endpoint ?? deviceEndpoint}" } }"#
        )
        #expect(good.diagnostics.filter { $0.severity == .error }.isEmpty, "\(good.diagnostics)")
        let bad = Self.load(
            #""requests": { "d": { "method": "POST", "url": "{discovered.device_authorization_endpoint ?? deviceEndpont}" } }"#
        )
        let error = bad.diagnostics.first { $0.severity == .error }
        #expect(error?.message.contains("unknown variable \"{deviceEndpont}\"") == true, "\(bad.diagnostics)")
    }

    @Test func clientCredentialsAndEndSessionDecode() throws {
        let result = Self.load(
            #"""
            "requests": { "cc": { "method": "POST", "url": "{discovered.token_endpoint}", "encoding": "form", "clientAuthentication": "basic", "body": { "grant_type": "client_credentials", "scope": "{scope}" }, "response": "session" } },
              "flows": {
                "clientCredentials": { "request": "cc", "scopes": ["api"] },
                "endSession": { "url": "{discovered.end_session_endpoint}", "query": { "id_token_hint": "{id_token}", "post_logout_redirect_uri": "{post_logout_redirect_uri}", "state": "{state}" } }
              }
            """#)
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics)")
        let flows = try #require(result.descriptor?.flows)
        #expect(flows.clientCredentials?.request == "cc")
        #expect(flows.clientCredentials?.scopes == ["api"])
        #expect(flows.endSession?.query.map(\.name) == ["id_token_hint", "post_logout_redirect_uri", "state"])
    }

    @Test func serverFlowErrorsAreLocated() {
        let wrongResponse = Self.load(
            #"""
            "requests": { "cc": { "method": "POST", "url": "{discovered.token_endpoint}", "response": "document" } },
              "flows": { "clientCredentials": { "request": "cc" }, "endSession": { "url": "http://example.com/logout", "qeury": {} } }
            """#)
        let messages = wrongResponse.diagnostics.map(\.message)
        #expect(messages.contains { $0.contains("has response \"document\"") }, "\(messages)")
        #expect(messages.contains { $0.contains("is not https") }, "\(messages)")
        #expect(messages.contains { $0.contains("unknown key \"qeury\"") }, "\(messages)")
    }
}
