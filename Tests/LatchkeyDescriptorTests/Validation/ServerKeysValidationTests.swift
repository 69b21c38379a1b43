import Foundation
import LatchkeyDescriptor
import LatchkeyVocabulary
import Testing

/// `audience`, an input's `require`, a request's `pagination` and the parameter type `strings`: decoded as written,
/// and every mistake a located error.
@Suite struct ServerKeysValidationTests {
    static func load(_ extra: String, version: Int = 2) -> (descriptor: Descriptor?, errors: [Diagnostic]) {
        let text = """
            {
              "formatVersion": \(version),
              "name": "acme",
              "displayName": "Acme",
              \(extra)
            }
            """
        let result = DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json")
        return (result.descriptor, result.diagnostics.filter { $0.severity == .error })
    }

    static let list =
        #""requests": {"list": {"url": "https://e.com/users", "response": "document", "#
        + #""pagination": {"totalHeader": "x-total-count", "linkHeader": "link"}}}"#

    @Test("audience, require, pagination and strings decode as written")
    func decodes() throws {
        let loaded = Self.load(
            #""audience": "server", "inputs": {"key": {"require": {"anyOf": [{"prefix": "sk_"}, "#
                + #"{"jwtClaim": "role", "equals": "admin"}], "message": "a secret key"}}}, "# + Self.list
                + #", "actions": {"add": {"request": "list", "parameters": {"ids": {"type": "strings"}}}}"#)
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        let descriptor = try #require(loaded.descriptor)
        #expect(descriptor.audience == .server)
        let requirement = try #require(descriptor.inputs.first?.requirement)
        #expect(requirement.anyOf.map(\.prefix) == ["sk_", nil])
        #expect(requirement.anyOf.last?.jwtClaim == "role")
        #expect(requirement.code == "invalid_configuration")
        let pagination = try #require(descriptor.requests.first?.value.pagination)
        #expect(pagination.totalHeader == "x-total-count")
        #expect(pagination.linkHeader == "link")
        #expect(pagination.pageParameter == "page")
        #expect(descriptor.actions.first?.value.parameters.first?.value.type == .strings)
    }

    @Test("A uuid parameter decodes, needs format version 2, and takes no values")
    func uuidParameter() throws {
        let fragment =
            #""requests": {"u": {"url": "https://e.com/users/{id}", "response": "document"}}, "#
            + #""actions": {"user": {"request": "u", "parameters": {"id": {"type": "uuid"}}}}"#
        let loaded = Self.load(fragment)
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        #expect(loaded.descriptor?.actions.first?.value.parameters.first?.value.type == .uuid)
        #expect(Self.load(fragment, version: 1).errors.contains { $0.message.contains("needs formatVersion 2") })
        let withValues = fragment.replacingOccurrences(
            of: #""type": "uuid""#, with: #""type": "uuid", "values": ["a"]"#)
        #expect(Self.load(withValues).errors.contains { $0.message.contains("needs a string or strings parameter") })
    }

    @Test("omitEmptyBody decodes with a JSON body, and needs format version 2")
    func omitEmptyBody() throws {
        let request =
            #""requests": {"c": {"method": "POST", "url": "https://e.com", "encoding": "json", "#
            + #""body": {"channel": "{channel}"}, "omitEmptyBody": true}}, "#
            + #""actions": {"challenge": {"request": "c", "parameters": {"channel": {"optional": true}}}}"#
        let loaded = Self.load(request)
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        #expect(loaded.descriptor?.requests.first?.value.omitsEmptyBody == true)
        #expect(Self.load(request, version: 1).errors.contains { $0.message.contains("needs formatVersion 2") })
    }

    @Test(
        "Mistakes are located errors",
        arguments: [
            (#""audience": "browser""#, "must be one of"),
            (
                #""audience": "server", "requests": {"t": {"url": "https://e.com", "response": "session"}}, "#
                    + #""flows": {"password": {"request": "t"}}"#, "has no sign-in flows"
            ),
            (#""inputs": {"key": {"require": {"anyOf": [], "message": "m"}}}"#, "non-empty array"),
            (
                #""inputs": {"key": {"require": {"anyOf": [{"prefix": "a", "jwtClaim": "b"}], "message": "m"}}}"#,
                "exactly one"
            ),
            (#""inputs": {"key": {"require": {"anyOf": [{"jwtClaim": "role"}], "message": "m"}}}"#, "needs \"equals\""),
            (#""inputs": {"key": {"require": {"anyOf": [{"prefix": "a"}]}}}"#, "message"),
            (
                #""requests": {"l": {"url": "https://e.com", "pagination": {"pageParameter": "p"}}}"#,
                "needs \"totalHeader\""
            ),
            (
                #""requests": {"l": {"url": "https://e.com", "pagination": {"totalHeader": "t"}}}"#,
                "\"response\": \"document\""
            ),
            (
                #""requests": {"c": {"method": "POST", "url": "https://e.com", "omitEmptyBody": true}}"#,
                "\"omitEmptyBody\" needs \"encoding\": \"json\""
            ),
            (
                #""requests": {"c": {"method": "POST", "url": "https://e.com", "encoding": "json", "omitEmptyBody": 1}}"#,
                "expected true or false"
            ),
        ])
    func mistakes(fragment: String, message: String) throws {
        let loaded = Self.load(fragment)
        let error = try #require(loaded.errors.first, "no error for \(fragment)")
        #expect(error.description.contains(message), "\(error)")
    }

    @Test("Each key needs formatVersion 2")
    func needsVersion2() {
        for fragment in [
            #""audience": "server""#, #""inputs": {"key": {"require": {"anyOf": [{"prefix": "a"}], "message": "m"}}}"#,
            Self.list,
        ] {
            let loaded = Self.load(fragment, version: 1)
            #expect(loaded.errors.contains { $0.description.contains("needs formatVersion 2") }, "\(fragment)")
        }
    }
}
