import LatchkeyDescriptor
import LatchkeyGenerator
import Testing

/// A parameter with `values` takes a generated Swift enum whose raw values are the wire strings; an action's
/// `returns` reaches the spec literal (issue 31).
@Suite struct ValueEnumGenerationTests {
    static let descriptorText = #"""
        {
          "formatVersion": 2,
          "name": "acme",
          "displayName": "Acme",
          "requests": {
            "resend": {"method": "POST", "url": "https://e.com/resend", "encoding": "json",
              "body": {"type": "{type}", "channel": "{channel}"}, "response": "document"}
          },
          "actions": {
            "resendCode": {"request": "resend", "method": "resend", "returns": "/message_id", "parameters": {
              "type": {"values": ["sms", "phone_change", "default"], "description": "What to resend."},
              "channel": {"values": ["whatsapp"], "optional": true}
            }}
          }
        }
        """#

    @Test("one enum per parameter with values, nested in the client; the method takes it and sends its raw value")
    func generated() throws {
        let result = DescriptorLoader.load(bytes: Array(Self.descriptorText.utf8), fileName: "acme.json")
        let descriptor = try #require(result.descriptor, "\(result.diagnostics)")
        let generator = try Generator(templatesDirectory: PackageRoot.path("Templates"))
        let code = try generator.render(descriptor, fileName: "acme.json")
        #expect(code.contains("public enum ResendCodeType: Swift.String, Swift.Sendable, Swift.CaseIterable {"))
        #expect(code.contains(#"case sms = "sms""#))
        #expect(code.contains(#"case phoneChange = "phone_change""#))
        #expect(code.contains(#"case `default` = "default""#))
        #expect(code.contains("public enum ResendCodeChannel: Swift.String, Swift.Sendable, Swift.CaseIterable {"))
        #expect(code.contains("type: ResendCodeType,"))
        #expect(code.contains("channel: ResendCodeChannel? = nil"))
        #expect(code.contains(#"arguments["type"] = .string(type.rawValue)"#))
        #expect(code.contains(#"if let channel { arguments["channel"] = .string(channel.rawValue) }"#))
        #expect(code.contains(#"allowedValues: ["sms", "phone_change", "default"]"#), "the runtime still checks")
        #expect(code.contains(#"resultPointer: "/message_id""#))
    }
}
