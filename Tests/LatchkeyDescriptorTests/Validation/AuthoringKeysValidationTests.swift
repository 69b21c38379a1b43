import LatchkeyDescriptor
import Testing

/// `clientSecret` and error rows' `match`: decoded as written, and every mistake a located error.
@Suite struct AuthoringKeysValidationTests {
    static func load(_ extra: String) -> (descriptor: Descriptor?, errors: [Diagnostic]) {
        let text = """
            {
              "formatVersion": 2,
              "name": "acme",
              "displayName": "Acme",
              "requests": {"token": {"method": "POST", "url": "https://e.com/t", "clientAuthentication": "post"}},
              \(extra)
            }
            """
        let result = DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json")
        return (result.descriptor, result.diagnostics.filter { $0.severity == .error })
    }

    @Test("clientSecret: required and its reason are decoded")
    func clientSecretDecodes() throws {
        let loaded = Self.load(#""clientSecret": {"required": true, "reason": "Strava has no public clients."}"#)
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        let secret = try #require(loaded.descriptor?.clientSecret)
        #expect(secret.required)
        #expect(secret.reason == "Strava has no public clients.")
    }

    @Test("a required secret that no request sends is a located error")
    func requiredSecretNeedsASender() throws {
        let text = """
            {
              "formatVersion": 2,
              "name": "acme",
              "displayName": "Acme",
              "clientSecret": {"required": true}
            }
            """
        let errors = DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json").diagnostics
        let error = try #require(errors.first)
        #expect(errors.count == 1, "\(errors)")
        #expect(error.message.contains("no request sends it"), "\(error)")
        #expect(error.location.line == 5)
        #expect(error.pointer == "/clientSecret")
    }

    @Test("clientSecret's unknown keys are refused with a suggestion")
    func clientSecretUnknownKey() throws {
        let loaded = Self.load(#""clientSecret": {"requried": true}"#)
        let error = try #require(loaded.errors.first)
        #expect(error.description.contains("required"), "\(error)")
        #expect(error.location.line == 6)
    }

    @Test("match: pointers and values (strings, integers, booleans) are decoded as text")
    func matchDecodes() throws {
        let loaded = Self.load(
            #""errors": {"map": [{"match": {"/errors/0/field": "client_id", "/errors/0/status": 40, "/retry": false}, "code": "invalid_client"}], "callback": [{"providerCode": "access_denied", "match": {"/error_reason": "user_denied"}, "code": "login_cancelled"}]}"#
        )
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        let row = try #require(loaded.descriptor?.errors.map.first)
        #expect(
            row.match == [
                .init(pointer: "/errors/0/field", equals: "client_id"),
                .init(pointer: "/errors/0/status", equals: "40"),
                .init(pointer: "/retry", equals: "false"),
            ])
        #expect(row.providerCode == nil)
        let callbackRow = try #require(loaded.descriptor?.errors.callback.first)
        #expect(callbackRow.match == [.init(pointer: "/error_reason", equals: "user_denied")])
    }

    @Test(
        "match mistakes are located errors",
        arguments: [
            (#"{"match": {}, "code": "invalid_client"}"#, "non-empty JSON object"),
            (#"{"match": {"errors/0/field": "x"}, "code": "invalid_client"}"#, "is not a JSON pointer"),
            (#"{"match": {"/field": {"a": 1}}, "code": "invalid_client"}"#, "expected a string, an integer"),
            (#"{"match": {"/field": 1.5}, "code": "invalid_client"}"#, "expected a string, an integer"),
        ])
    func matchMistakes(row: String, message: String) throws {
        let loaded = Self.load(#""errors": {"map": ["# + row + "]}")
        let error = try #require(loaded.errors.first, "no error for \(row)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.location.line == 6)
        #expect(error.pointer?.hasPrefix("/errors/map/0/match") == true, "\(error)")
    }

    @Test("a callback row's match names one callback parameter")
    func callbackMatchIsOneSegment() throws {
        let loaded = Self.load(
            #""errors": {"callback": [{"match": {"/error/reason": "x"}, "code": "login_cancelled"}]}"#)
        let error = try #require(loaded.errors.first)
        #expect(error.message.contains("names a callback parameter"), "\(error)")
        #expect(error.pointer?.hasPrefix("/errors/callback/0/match") == true, "\(error)")
    }

    @Test("captures: a request capture, a token-response capture, and their use in a later request's URL")
    func capturesDecode() throws {
        let text = """
            {
              "formatVersion": 2,
              "name": "acme",
              "displayName": "Acme",
              "captures": {"cloudid": {"request": "resources", "pointer": "/0/id"}, "trace": {"header": "X-Trace"}},
              "requests": {
                "resources": {"url": "https://e.com/accessible-resources", "authorization": "accessToken", "response": "document"},
                "me": {"url": "https://e.com/ex/jira/{cloudid}/myself", "headers": {"X-Trace": "{trace}"}, "authorization": "accessToken", "response": "document"}
              },
              "actions": {"me": {"request": "me"}}
            }
            """
        let result = DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json")
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics)")
        let captures = try #require(result.descriptor?.captures)
        #expect(captures.map(\.name) == ["cloudid", "trace"])
        #expect(captures.first?.value == .init(request: "resources", pointer: "/0/id"))
        #expect(captures.last?.value == .init(header: "X-Trace"))
    }

    @Test(
        "capture mistakes are located errors",
        arguments: [
            (#"{"bad name": {"pointer": "/a"}}"#, "is not a valid capture name"),
            (#"{"c": {"pointer": "/a", "header": "X-A"}}"#, "exactly one of"),
            (#"{"c": {}}"#, "exactly one of"),
            (#"{"c": {"request": "missing", "pointer": "/a"}}"#, "no request named"),
            (#"{"clientID": {"pointer": "/a"}}"#, "has the name of an input"),
        ])
    func captureMistakes(captures: String, message: String) throws {
        let loaded = Self.load(#""inputs": {"clientID": {}}, "captures": "# + captures)
        let error = try #require(loaded.errors.first, "no error for \(captures)")
        #expect(loaded.errors.contains { $0.message.contains(message) }, "\(loaded.errors)")
        #expect(error.pointer?.hasPrefix("/captures") == true || error.pointer?.hasPrefix("/requests") == true)
    }

    @Test("a capture used where it is not declared is an unknown variable")
    func undeclaredCapture() throws {
        let loaded = Self.load(#""headers": {"X-Cloud": "{cloudid}"}"#)
        #expect(loaded.errors.contains { $0.message.contains("unknown variable \"{cloudid}\"") }, "\(loaded.errors)")
    }
}
