import Foundation
import LatchkeyDescriptor
import LatchkeyVocabulary
import Testing

/// Format version 2's keys for supabase-swift parity (issue 31): `errors.sessionEndedCodes`, an action's `method`
/// (overloads told apart by their required labels) and parameter `type: "object"`: decoded when right, located
/// errors otherwise.
@Suite struct ParityKeysValidationTests {
    static func descriptor(
        version: Int = 2, errors: String = #""sessionEndedCodes": ["session_not_found"]"#,
        actions: String = """
        "signUpWithEmail": { "request": "signUp", "method": "signUp",
                             "parameters": { "email": {}, "captchaToken": { "optional": true }, "data": { "type": "object", "optional": true } } },
        "signUpWithPhone": { "request": "signUp", "method": "signUp", "parameters": { "phone": {} } },
        "signInWithPhone": { "request": "signUp", "method": "signIn", "parameters": { "phone": {}, "password": {} } }
        """
    ) -> String {
        """
        {
          "formatVersion": \(version),
          "name": "acme",
          "displayName": "Acme",
          "requests": {
            "token": { "method": "POST", "url": "https://e.com/token", "encoding": "json",
                       "body": { "username": "{username}", "password": "{password}" }, "response": "session" },
            "signUp": { "method": "POST", "url": "https://e.com/signup", "encoding": "json",
                        "body": { "email": "{email}", "phone": "{phone}", "password": "{password}", "data": "{data}",
                                  "meta": { "captcha_token": "{captchaToken}" } } }
          },
          "flows": { "password": { "request": "token" } },
          "actions": { \(actions) },
          "errors": { \(errors) }
        }
        """
    }

    static func load(_ text: String) -> DescriptorLoader.Result {
        DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json")
    }

    static func errors(_ text: String) -> [Diagnostic] {
        load(text).diagnostics.filter { $0.severity == .error }
    }

    @Test("The keys decode: session-ended codes, methods, object parameters")
    func decodes() throws {
        let result = Self.load(Self.descriptor())
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let descriptor = try #require(result.descriptor)
        #expect(descriptor.errors.sessionEndedCodes == ["session_not_found"])
        #expect(descriptor.actions.map { $0.value.method } == ["signUp", "signUp", "signIn"])
        #expect(descriptor.actions.first?.value.parameters.last?.value.type == .object)
    }

    @Test(
        "Located errors: version 1, duplicate codes, same overload twice, the password flow's signIn, reserved names",
        arguments: [
            (descriptor(version: 1), "needs formatVersion 2"),
            (descriptor(errors: #""sessionEndedCodes": ["a", "a"]"#), "listed twice"),
            (descriptor(errors: #""sessionEndedCodes": "session_not_found""#), "expected an array of strings"),
            (
                descriptor(
                    actions: """
                        "one": { "request": "signUp", "method": "signUp", "parameters": { "phone": {} } },
                        "two": { "request": "signUp", "method": "signUp", "parameters": { "phone": {}, "data": { "optional": true } } }
                        """), "both become the Swift method signUp(phone:)"
            ),
            (
                descriptor(
                    actions:
                        #""one": { "request": "token", "method": "signIn", "parameters": { "email": {}, "password": {} } }"#
                ),
                "both become the Swift method signIn(email:password:)"
            ),
            (
                descriptor(actions: #""one": { "request": "signUp", "method": "restore", "parameters": {} }"#),
                "does not give a usable Swift method name"
            ),
            (
                descriptor(
                    actions:
                        #""one": { "request": "signUp", "pkce": { "when": ["mail"] }, "parameters": { "email": {} } }"#),
                "\"mail\" is not a parameter of this action"
            ),
            (
                descriptor(actions: #""one": { "request": "signUp", "parameters": { "data": { "type": "json" } } }"#),
                "is not one of"
            ),
        ])
    func locatedErrors(text: String, message: String) {
        let errors = Self.errors(text)
        #expect(errors.contains { $0.message.contains(message) }, "expected \(message) in \(errors)")
        #expect(errors.allSatisfy { $0.pointer != nil })
    }
}
