import Foundation
import LatchkeyDescriptor
import LatchkeyGenerator
@_spi(Generated) import LatchkeyTesting
import Testing

/// Hostile text in every free-text field must come out escaped: the generated file compiles and
/// declares nothing but the client.
@Suite struct HostileInputTests {
    static let hostile = [
        "\"", "\\", "\\(evil())", "*/", "/*", "\n}\nfunc injected() {}\n", "\u{2028}", "\u{2029}", "\"\"\"", "#",
        "\"#", "\u{0}", "\r\n", "`", "'", "<script>", "${x}", "\u{202E}",
    ].joined(separator: " ")

    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static var descriptorText: String {
        let h = json(hostile)
        let braceSafe = json(
            hostile.replacingOccurrences(of: "{", with: "{{").replacingOccurrences(of: "}", with: "}}"))
        return """
            {
              "formatVersion": 1,
              "name": "hostile",
              "displayName": \(h),
              "description": \(h),
              "documentation": "https://example.com/\\"*/\\\\(x)",
              "inputs": {
                "baseURL": { "type": "url", "description": \(h), "default": "https://example.com" },
                "key": { "description": \(h), "reject": [{ "prefix": \(braceSafe), "message": \(h) }] }
              },
              "headers": { \(h): \(braceSafe) },
              "tokenParameters": { \(h): \(braceSafe) },
              "requests": {
                \(h): {
                  "method": "POST",
                  "url": "{baseURL}/token/\\"\\\\(evil())",
                  "encoding": "json",
                  "query": { \(h): \(braceSafe) },
                  "body": { "nested": { \(h): [\(braceSafe), 1e3, true, null] }, "username": "{username}", "password": "{password}" },
                  "response": "session"
                }
              },
              "flows": { "password": { "request": \(h) } },
              "actions": {
                "doThing": {
                  "request": \(h),
                  "description": \(h),
                  "parameters": { "value": { "description": \(h), "values": ["plain_value"] } }
                }
              },
              "errors": {
                "codes": { "weird_code": { "kind": "rejected", "description": \(h) } },
                "map": [{ "providerCode": \(h), "code": "weird_code" }]
              }
            }
            """
    }

    @Test func hostileDescriptorValidates() throws {
        let result = DescriptorLoader.load(bytes: Array(Self.descriptorText.utf8), fileName: "hostile.json")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    }

    // posix_spawn: not on iOS, tvOS, watchOS, visionOS.
    #if os(macOS) || os(Linux)
        @Test func hostileTextIsEscapedAndCompiles() async throws {
            let result = DescriptorLoader.load(bytes: Array(Self.descriptorText.utf8), fileName: "hostile.json")
            let descriptor = try #require(result.descriptor)
            let source = try Generator(templatesDirectory: PackageRoot.path("Templates")).render(
                descriptor, fileName: "hostile.json")
            #expect(!source.contains("\u{2028}") && !source.contains("\u{0}") && !source.contains("\r"))
            // Everything outside comments and string literals must be the template's own code: the only
            // declarations are the client's (the operations every provider has come from the runtime's
            // AuthProviderClient extension, not from the generated file), and the enum of the parameter's values.
            let declarations = source.split(separator: "\n").compactMap { line -> String? in
                let text = line.trimmingCharacters(in: .whitespaces)
                for prefix in ["public func ", "func ", "public struct ", "struct ", "public enum ", "enum "]
                where text.hasPrefix(prefix) {
                    return String(text.dropFirst(prefix.count).prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                }
                return nil
            }
            #expect(
                Set(declarations) == ["HostileClient", "signIn", "doThing", "DoThingValue"],
                "\(declarations)")
            try await Self.typecheck(source)
        }

        /// Type-checks a generated file against the built LatchkeyRuntime module with swiftc.
        static func typecheck(_ source: String) async throws {
            guard let moduleDirectory = BuildProducts.folder(containing: "LatchkeyRuntime.swiftmodule") else {
                Issue.record("LatchkeyRuntime.swiftmodule not found in \(BuildProducts.directories)")
                return
            }
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-hostile-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("hostile.swift")
            try Data(source.utf8).write(to: file)
            let arguments = [
                "swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", moduleDirectory.path,
                "-Xcc", "-fmodule-map-file=\(PackageRoot.path("Sources/CLatchkeyCrypto/module.modulemap"))",
                "-Xcc", "-fmodule-map-file=\(PackageRoot.path("Sources/CLatchkeyCurl/module.modulemap"))", file.path,
            ]
            // Not Foundation's `Process`: see ``ChildProgram`` for the crash its `run()` causes in this test process.
            let (status, output) = try await DedicatedThread.run {
                let run = try ChildProgram.run(URL(fileURLWithPath: "/usr/bin/env"), arguments)
                return (run.status, String(decoding: run.stderr + run.stdout, as: UTF8.self))
            }
            #expect(status == 0, "swiftc failed:\n\(output)")
        }
    #endif
}
