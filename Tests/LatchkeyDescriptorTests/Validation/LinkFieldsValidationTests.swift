import Foundation
import LatchkeyDescriptor
import Testing

/// Format version 2's `callback.implicit` and `actions.NAME.pkce`: accepted when complete, located errors
/// otherwise.
@Suite struct LinkFieldsValidationTests {
    static let requests = """
        "requests": {
            "token": { "method": "POST", "url": "https://e.com/token", "encoding": "json",
                       "body": { "code": "{code}", "code_verifier": "{code_verifier}" }, "response": "session" },
            "user": { "method": "GET", "url": "https://e.com/user", "authorization": "accessToken", "response": "user" },
            "recover": { "method": "POST", "url": "https://e.com/recover", "encoding": "json",
                         "body": { "email": "{email}", "code_challenge": "{code_challenge}",
                                   "code_challenge_method": "{code_challenge_method}" } },
            "plain": { "method": "POST", "url": "https://e.com/plain", "encoding": "json", "body": { "email": "{email}" } }
          }
        """
    static let codeFlow = """
        "authorizationCode": { "authorizeURL": "https://e.com/authorize", "exchange": "token" }
        """

    static func descriptor(
        version: Int = 2, flows: String = codeFlow + #", "userInfo": { "request": "user" }"#,
        action: String =
            #""pkce": { "method": "s256", "redirects": ["recovery", "default"], "event": "password_recovery" }"#,
        callback: String =
            #""implicit": { "redirects": ["default", "recovery"], "typeParameter": "type", "events": { "recovery": "password_recovery" } }"#
    ) -> String {
        """
        {
          "formatVersion": \(version),
          "name": "acme",
          "displayName": "Acme",
          \(requests),
          "flows": { \(flows) },
          "actions": { "reset": { "request": "recover", \(action),
                                  "parameters": { "email": {} } } },
          "callback": { \(callback) }
        }
        """
    }

    static func errors(_ text: String) -> [Diagnostic] {
        DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json").diagnostics.filter {
            $0.severity == .error
        }
    }

    @Test func completeDescriptorIsValidAndDecoded() throws {
        let result = DescriptorLoader.load(bytes: Array(Self.descriptor().utf8), fileName: "acme.json")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let descriptor = try #require(result.descriptor)
        #expect(descriptor.callback.implicit?.redirects == ["default", "recovery"])
        #expect(descriptor.callback.implicit?.typeParameter == "type")
        #expect(descriptor.callback.implicit?.events.map(\.value) == ["password_recovery"])
        let pkce = try #require(descriptor.actions.first?.value.pkce)
        #expect(pkce.method == "s256")
        #expect(pkce.redirects == ["recovery", "default"])
        #expect(pkce.event == "password_recovery")
    }

    @Test(arguments: [
        (descriptor(version: 1), "needs formatVersion 2"),
        (descriptor(flows: codeFlow), "needs a \"userInfo\" flow"),
        (descriptor(flows: #""userInfo": { "request": "user" }"#), "needs an \"authorizationCode\" flow"),
        (descriptor(callback: #""implicit": { "redirects": [] }"#), "\"redirects\" is empty"),
        (descriptor(callback: #""implicit": { "typeParameter": "type" }"#), "missing required key \"redirects\""),
        (
            descriptor(callback: #""implicit": { "redirects": ["default"], "events": { "recovery": "x" } }"#),
            "needs \"typeParameter\""
        ),
        (descriptor(callback: #""implicit": { "redirects": ["Not A Name"] }"#), "is not a redirectURIs key"),
        (descriptor(action: #""pkce": { "method": "plain" }"#), "is not one of"),
        (descriptor(action: #""pkce": { "event": "Password-Recovery" }"#), "is not lower_snake_case"),
        (descriptor(action: #""pkce": { "lifetime": 5 }"#), "from 30 to 86400"),
        (descriptor(action: #""pkce": { "redirect": ["x"] }"#), "did you mean \"redirects\""),
    ])
    func locatedErrors(text: String, message: String) throws {
        let errors = Self.errors(text)
        #expect(
            errors.contains { $0.message.contains(message) || $0.description.contains(message) },
            "expected \(message) in \(errors)")
        #expect(errors.allSatisfy { $0.pointer != nil })
    }

    @Test func pkceNeedsTheChallengeInItsRequest() {
        let text = Self.descriptor().replacingOccurrences(
            of: #""reset": { "request": "recover""#, with: #""reset": { "request": "plain""#)
        let errors = Self.errors(text)
        #expect(errors.contains { $0.message.contains("to send {code_challenge}") }, "\(errors)")
        #expect(errors.contains { $0.message.contains("to send {code_challenge_method}") }, "\(errors)")
    }

    @Test func implicitNeedsOneSegmentSessionPointers() {
        let text = Self.descriptor().replacingOccurrences(
            of: #""callback": {"#, with: #""session": { "accessToken": "/data/token" }, "callback": {"#)
        let errors = Self.errors(text)
        #expect(errors.contains { $0.message.contains("cannot name a fragment parameter") }, "\(errors)")
    }
}
