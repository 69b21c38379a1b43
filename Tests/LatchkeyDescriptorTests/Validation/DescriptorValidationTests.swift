import LatchkeyDescriptor
import Testing

/// Semantic checks: each bad descriptor yields a located error naming the problem.
@Suite struct DescriptorValidationTests {
    static func minimal(_ extra: String = "", name: String = "acme") -> String {
        """
        {
          "formatVersion": 1,
          "name": "\(name)",
          "displayName": "Acme"\(extra.isEmpty ? "" : ",\n  " + extra)
        }
        """
    }

    static func diagnostics(_ text: String, fileName: String = "acme.json") -> [Diagnostic] {
        DescriptorLoader.load(bytes: Array(text.utf8), fileName: fileName).diagnostics
    }

    @Test func minimalDescriptorIsValid() {
        #expect(Self.diagnostics(Self.minimal()).isEmpty)
    }

    @Test(arguments: [
        // (descriptor fragment, expected line, message fragment)
        (#""requets": {}"#, 5, "unknown key \"requets\""),
        (#""requests": { "t": { "method": "POST", "url": "http://example.com/token" } }"#, 5, "is not https"),
        (#""requests": { "t": { "method": "GET", "url": "ftp://example.com" } }"#, 5, "is not https"),
        // User info before `@` names another host: `localhost:x@evil.example` is evil.example, not loopback.
        (#""requests": { "t": { "method": "GET", "url": "http://localhost:80@evil.example/x" } }"#, 5, "is not https"),
        (#""requests": { "t": { "method": "GET", "url": "ftp://{host}" } }"#, 5, "must start with https://"),
        (#""flows": { "password": { "request": "missing" } }"#, 5, "no request named \"missing\""),
        (
            #""requests": { "t": { "method": "POST", "url": "https://e.com", "body": { "client_secret": "abc123" }, "encoding": "form" } }"#,
            5, "literal secret"
        ),
        (#""requests": { "t": { "method": "GET", "url": "https://e.com/{nope}" } }"#, 5, "unknown variable \"{nope}\""),
        (#""requests": { "t": { "method": "GET", "url": "https://e.com/{unclosed" } }"#, 5, "is not closed"),
        (#""errors": { "map": [{ "status": 400, "code": "not_a_code" }] }"#, 5, "unknown error code"),
        (#""requests": { "t": { "method": "YEET", "url": "https://e.com" } }"#, 5, "is not one of"),
        (#""formatVersion2": 1"#, 5, "did you mean \"formatVersion\""),
    ])
    func semanticErrors(fragment: String, line: Int, message: String) throws {
        let found = Self.diagnostics(Self.minimal(fragment))
        let error = try #require(found.first { $0.severity == .error }, "no error for \(fragment)")
        #expect(error.message.contains(message) || error.description.contains(message), "\(error)")
        #expect(error.location.line == line, "\(error)")
        #expect(error.pointer != nil)
    }

    @Test func loopbackHTTPIsAllowed() {
        let text = Self.minimal(#""requests": { "t": { "method": "GET", "url": "http://127.0.0.1:8080/x" } }"#)
        #expect(Self.diagnostics(text).isEmpty)
    }

    @Test func fileNameMustMatchName() {
        let found = Self.diagnostics(Self.minimal(), fileName: "other.json")
        #expect(found.contains { $0.message.contains("its file is \"other.json\"") })
    }

    @Test(arguments: ["Acme", "acme_co", "-acme", "acme-", "a--b", "", "9acme"])
    func invalidNames(name: String) {
        let found = Self.diagnostics(Self.minimal(name: name), fileName: "\(name).json")
        #expect(found.contains { $0.message.contains("invalid provider name") })
    }

    @Test func topLevelMustBeAnObject() throws {
        let found = Self.diagnostics("[1, 2]")
        let error = try #require(found.first)
        #expect(error.message.contains("must be a JSON object"))
        #expect(error.location == SourceLocation(line: 1, column: 1))
    }

    @Test func everyProblemOfAFileIsReportedInOneRun() {
        let text = Self.minimal(#""requets": {}, "flows": { "password": { "request": "x" } }, "headerz": {}"#)
        #expect(Self.diagnostics(text).filter { $0.severity == .error }.count == 3)
    }

    @Test func formattedDiagnosticFollowsTheContract() throws {
        let error = try #require(Self.diagnostics(Self.minimal(#""requets": {}"#)).first)
        let line = error.formatted(file: "Descriptors/acme.json")
        #expect(line.hasPrefix("Descriptors/acme.json:5:3: error: unknown key \"requets\""))
        #expect(line.contains("(at /requets)"))
    }

    @Test("an unknown key far from every known one lists each allowed key once, sorted")
    func allowedKeysAreListedOnce() throws {
        let error = try #require(Self.diagnostics(Self.minimal(#""zzzzzzzzzzzz": {}"#)).first)
        let fixIt = try #require(error.fixIt)
        #expect(fixIt.hasPrefix("allowed keys here: "))
        let keys = fixIt.dropFirst("allowed keys here: ".count).split(separator: ", ").map(String.init)
        #expect(keys.contains("actionGroups"))
        #expect(keys == Array(Set(keys)).sorted())
    }

    @Test func swiftNameCollisionsAreReported() throws {
        let a = try #require(DescriptorLoader.load(bytes: Array(Self.minimal(name: "ab-c").utf8)).descriptor)
        let b = try #require(DescriptorLoader.load(bytes: Array(Self.minimal(name: "a-bc").utf8)).descriptor)
        #expect(DescriptorLoader.checkCollisions([("x.json", a), ("y.json", b)]).isEmpty == false)
    }
}
