import LatchkeyDescriptor
import LatchkeyGenerator
import Testing

/// `clientSecret` and error rows' `match` reach the generated spec literal and the initializer's documentation.
@Suite struct AuthoringKeysGenerationTests {
    static let descriptorText = #"""
        {
          "formatVersion": 2,
          "name": "strava-like",
          "displayName": "Strava-like",
          "clientSecret": {"required": true, "reason": "No public clients."},
          "captures": {"athleteID": {"pointer": "/athlete/id"}},
          "user": {"id": "/id", "nameParts": ["/firstname", "/lastname"]},
          "callback": {"scope": "scope"},
          "inputs": {"clientID": {}},
          "requests": {
            "exchangeCode": {"method": "POST", "url": "https://e.com/oauth/token", "encoding": "form",
              "body": {"code": "{code}", "client_id": "{clientID}"}, "clientAuthentication": "post", "response": "session"}
          },
          "flows": {"authorizationCode": {"authorizeURL": "https://e.com/oauth/authorize",
            "query": {"client_id": "{clientID}", "redirect_uri": "{redirect_uri}", "state": "{state}"}, "exchange": "exchangeCode"}},
          "errors": {"map": [{"match": {"/errors/0/field": "client_id", "/errors/0/index": 0}, "code": "invalid_client"}]}
        }
        """#

    @Test("the spec literal carries the requirement and the row's conditions; the initializer documents them")
    func generated() throws {
        let result = DescriptorLoader.load(bytes: Array(Self.descriptorText.utf8), fileName: "strava-like.json")
        let descriptor = try #require(result.descriptor, "\(result.diagnostics)")
        let generator = try Generator(templatesDirectory: PackageRoot.path("Templates"))
        let code = try generator.render(descriptor, fileName: "strava-like.json")
        #expect(code.contains(#"clientSecret: LatchkeyRuntime.ClientSecretRequirement(reason: "No public clients.")"#))
        #expect(code.contains(#".init(pointer: "/errors/0/field", value: "client_id")"#))
        #expect(code.contains(#".init(pointer: "/errors/0/index", value: "0")"#))
        #expect(
            code.contains("Required: without it this initializer throws `invalid_configuration`. No public clients."))
        #expect(code.contains("clientSecret: Swift.String? = nil,"))
        #expect(code.contains(#".init(name: "athleteID", pointer: "/athlete/id")"#))
        #expect(code.contains(#"nameParts: ["/firstname", "/lastname"]"#))
        #expect(code.contains(#"scopeParameter: "scope""#))
    }
}
