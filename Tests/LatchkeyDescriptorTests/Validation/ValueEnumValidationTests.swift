import Foundation
import LatchkeyDescriptor
import LatchkeyVocabulary
import Testing

/// A parameter's `values` become a Swift enum: its case names are checked when the descriptor is read, and an
/// action's `returns` pointer needs a document answer (issue 31).
@Suite struct ValueEnumValidationTests {
    static func descriptor(
        parameters: String = #""type": { "values": ["sms", "phone_change", "default"] }"#, returns: String = "",
        response: String = "document"
    ) -> String {
        """
        {
          "formatVersion": 2,
          "name": "acme",
          "displayName": "Acme",
          "requests": {
            "resend": { "method": "POST", "url": "https://e.com/resend", "encoding": "json",
                        "body": { "type": "{type}" }, "response": "\(response)" }
          },
          "actions": { "resend": { "request": "resend"\(returns), "parameters": { \(parameters) } } }
        }
        """
    }

    static func errors(_ text: String) -> [String] {
        DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json").diagnostics
            .filter { $0.severity == .error }.map(\.message)
    }

    @Test(
        "Values whose case names are identifiers decode; the names are the action's and parameter's, and lowerCamelCase"
    )
    func decodes() throws {
        #expect(Self.errors(Self.descriptor()).isEmpty)
        #expect(ValueEnumNames.enumName(action: "verifyOTP", parameter: "type") == "VerifyOTPType")
        #expect(ValueEnumNames.enumName(action: "sign-in", parameter: "chain_id") == "SignInChainId")
        #expect(ValueEnumNames.caseName("phone_change") == "phoneChange")
        #expect(ValueEnumNames.caseName("linkedin_oidc") == "linkedinOidc")
        #expect(ValueEnumNames.problem(caseName: "default") == nil, "a keyword goes in backticks")
    }

    @Test(
        "Located errors: a case that is no identifier, a reserved case, two values with one case, no values, a non-string parameter, two enums with one name",
        arguments: [
            (#""type": { "values": ["2fa"] }"#, "is not a Swift identifier"),
            (#""type": { "values": ["sms code"] }"#, "is not a Swift identifier"),
            (#""type": { "values": ["a\"b"] }"#, "is not a Swift identifier"),
            (#""type": { "values": ["self"] }"#, "is reserved in a Swift enum"),
            (#""type": { "values": ["raw_value"] }"#, "is reserved in a Swift enum"),
            (#""type": { "values": ["phone_change", "phone-change"] }"#, "both become the case phoneChange"),
            (#""type": { "values": [] }"#, "lists no value"),
            (#""type": { "type": "bool", "values": ["true"] }"#, "needs a string or strings parameter"),
            (#""type": { "values": ["a"] }, "Type": { "values": ["b"] }"#, "has the name of resend.type's"),
        ])
    func refused(parameters: String, message: String) {
        let errors = Self.errors(Self.descriptor(parameters: parameters))
        #expect(errors.contains { $0.contains(message) }, "\(errors)")
    }

    @Test("returns is a JSON pointer into a document answer")
    func returnsPointer() throws {
        let good = DescriptorLoader.load(
            bytes: Array(Self.descriptor(returns: #", "returns": "/url""#).utf8), fileName: "acme.json")
        #expect(good.diagnostics.isEmpty, "\(good.diagnostics)")
        #expect(good.descriptor?.actions.first?.value.returns == "/url")
        let notPointer = Self.errors(Self.descriptor(returns: #", "returns": "url""#))
        #expect(notPointer.contains { $0.contains("is not a JSON pointer") }, "\(notPointer)")
        let session = Self.errors(Self.descriptor(returns: #", "returns": "/url""#, response: "session"))
        #expect(session.contains { $0.contains("is needed") }, "\(session)")
    }
}
