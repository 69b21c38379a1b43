import Foundation
@_spi(Generated) import LatchkeyTesting
import Testing

/// One provider's documented examples (`Fixtures/<descriptor name>.json`): responses copied from the provider's
/// own documentation, each with its source, and what the generated client must read from them.
struct FidelityFixture: Sendable, CustomTestStringConvertible {
    /// One documented response and the expectation.
    struct Example: Sendable {
        var name: String
        var source: String
        /// The descriptor's request that the example answers.
        var request: String
        var response: TestResponse
        var expectation: Expectation
    }

    /// What the client must make of an example.
    struct Expectation: Sendable {
        /// Expected user fields (`nil` for a field: must be absent); a field left out is not checked.
        var user: [String: String?]?
        /// Expected session fields: `accessToken`, `refreshToken`, `tokenType`, `scope` (strings), `expiresIn`.
        var session: [String: String]?
        var expiresIn: Int?
        /// The stable error code and, optionally, its kind.
        var errorCode: String?
        var errorKind: String?
    }

    var provider: String
    var file: String
    var examples: [Example]
    /// What the provider's documentation does not publish (or publishes only as placeholders), and what was
    /// searched: a fixture without examples must say why here.
    var missing: [String] = []

    var testDescription: String { provider }

    /// The folder of the fixtures, beside this file.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures", isDirectory: true)

    /// Every fixture in the folder, sorted by provider; a malformed file is a test failure, not a skip.
    static func all() -> [FidelityFixture] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.sorted().map { file in
            do {
                return try load(folder.appendingPathComponent(file))
            } catch {
                return FidelityFixture(provider: "unreadable \(file): \(error)", file: file, examples: [])
            }
        }
    }

    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    static func load(_ url: URL) throws -> FidelityFixture {
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: url))
        guard let root = object as? [String: Any], let provider = root["provider"] as? String,
            let examples = root["examples"] as? [[String: Any]]
        else { throw FormatError(description: "needs \"provider\" and \"examples\"") }
        return FidelityFixture(
            provider: provider, file: url.lastPathComponent,
            examples: try examples.enumerated().map { index, example in
                try Self.example(example, label: "examples[\(index)]")
            },
            missing: root["missing"] as? [String] ?? [])
    }

    private static func example(_ object: [String: Any], label: String) throws -> Example {
        guard let name = object["name"] as? String, let source = object["source"] as? String,
            source.hasPrefix("https://"), let request = object["request"] as? String,
            let response = object["response"] as? [String: Any], let expect = object["expect"] as? [String: Any]
        else {
            throw FormatError(
                description: "\(label) needs name, an https source, request, response and expect")
        }
        var body = response["body"] ?? ""
        for pointer in object["omit"] as? [String] ?? [] {
            body = JSONPointerRemoval.removing(pointer, from: body)
        }
        let data: Data
        var headers = (response["headers"] as? [String: String] ?? [:]).map { (name: $0.key, value: $0.value) }
        if let text = body as? String {
            data = Data(text.utf8)
        } else {
            data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.append((name: "Content-Type", value: "application/json"))
            }
        }
        let status = response["status"] as? Int ?? 200
        return Example(
            name: name, source: source, request: request,
            response: TestResponse(status: status, headers: headers, body: data),
            expectation: try expectation(expect, label: label))
    }

    private static func expectation(_ object: [String: Any], label: String) throws -> Expectation {
        var expectation = Expectation()
        if let user = object["user"] as? [String: Any] {
            expectation.user = user.mapValues { $0 as? String }
        }
        if let session = object["session"] as? [String: Any] {
            expectation.session = session.compactMapValues { $0 as? String }
            expectation.expiresIn = session["expiresIn"] as? Int
        }
        if let error = object["error"] as? [String: Any] {
            guard let code = error["code"] as? String else { throw FormatError(description: "\(label): error.code") }
            expectation.errorCode = code
            expectation.errorKind = error["kind"] as? String
        }
        guard expectation.user != nil || expectation.session != nil || expectation.errorCode != nil else {
            throw FormatError(description: "\(label): expect needs user, session or error")
        }
        return expectation
    }
}

/// Removes the member a JSON pointer (RFC 6901) names from a `JSONSerialization` value.
enum JSONPointerRemoval {
    static func removing(_ pointer: String, from value: Any) -> Any {
        let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        return removing(ArraySlice(tokens), from: value)
    }

    private static func removing(_ tokens: ArraySlice<String>, from value: Any) -> Any {
        guard let first = tokens.first else { return value }
        if var object = value as? [String: Any] {
            if tokens.count == 1 {
                object[first] = nil
            } else if let child = object[first] {
                object[first] = removing(tokens.dropFirst(), from: child)
            }
            return object
        }
        if var array = value as? [Any], let index = Int(first), array.indices.contains(index) {
            if tokens.count == 1 {
                array.remove(at: index)
            } else {
                array[index] = removing(tokens.dropFirst(), from: array[index])
            }
            return array
        }
        return value
    }
}
