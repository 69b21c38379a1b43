import Foundation
import LatchkeyDescriptor
import LatchkeyVocabulary
import Testing

/// An action's `event` and `errors.sessionEndedEvents` (issue 31): decoded when right, located errors otherwise.
@Suite struct EventKeysValidationTests {
    static func descriptor(event: String = #""user_updated""#, ended: String = #"{"user_not_found": "user_deleted"}"#)
        -> String
    {
        """
        {
          "formatVersion": 2,
          "name": "acme",
          "displayName": "Acme",
          "requests": { "update": { "method": "PUT", "url": "https://e.com/user", "response": "user" } },
          "actions": { "updateUser": { "request": "update", "event": \(event), "parameters": {} } },
          "errors": { "sessionEndedCodes": ["user_not_found"], "sessionEndedEvents": \(ended) }
        }
        """
    }

    static func load(_ text: String) -> DescriptorLoader.Result {
        DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json")
    }

    @Test("The keys decode")
    func decodes() throws {
        let result = Self.load(Self.descriptor())
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let descriptor = try #require(result.descriptor)
        #expect(descriptor.actions.first?.value.event == "user_updated")
        #expect(descriptor.errors.sessionEndedEvents.map(\.name) == ["user_not_found"])
        #expect(descriptor.errors.sessionEndedEvents.map(\.value) == ["user_deleted"])
    }

    @Test(
        "Located errors: an event that is not lower_snake_case, a code missing from sessionEndedCodes",
        arguments: [
            (descriptor(event: #""UserUpdated""#), "is not lower_snake_case"),
            (descriptor(ended: #"{"user_not_found": "User Deleted"}"#), "is not lower_snake_case"),
            (descriptor(ended: #"{"session_not_found": "user_deleted"}"#), "is not one of \"sessionEndedCodes\""),
            (descriptor(ended: #"["user_deleted"]"#), "expected an object"),
        ])
    func refused(text: String, message: String) {
        let errors = Self.load(text).diagnostics.filter { $0.severity == .error }.map(\.message)
        #expect(errors.contains { $0.contains(message) }, "\(errors)")
    }
}
