import Foundation
import LatchkeyVocabulary
import Testing

/// Issue 17, item 5 and issue 27, item 4.3: `import Latchkey` re-exports the runtime and every generated client,
/// so a public top-level name that a framework apps import beside it also declares makes every unqualified use
/// in an app file ambiguous ("'SHA256' is ambiguous", "'SignInWithAppleButton' is ambiguous"). This scans the
/// runtime's and the generated clients' public top-level declarations against the committed list of those
/// frameworks' names (`CommonlyImportedTypeNames`, written from Apple's documentation).
@Suite("Apple platforms: public names do not collide with the SDKs apps import")
struct PublicNameCollisionTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("no public top-level runtime name is one the platform SDKs declare")
    func runtime() throws {
        let declared = try Self.publicTopLevelNames(in: "Sources/LatchkeyRuntime")
        #expect(declared.count > 50, "the scan found the runtime's public types")
        #expect(declared.intersection(CommonlyImportedTypeNames.all).sorted() == [])
    }

    @Test("no public top-level name of a generated client is one the platform SDKs declare")
    func generatedClients() throws {
        let declared = try Self.publicTopLevelNames(in: "Generated")
        #expect(
            declared.isSuperset(of: ["AppleClient", "BaseIdPClient", "AppleSignInButton", "SignInWithBaseIdPButton"]))
        #expect(declared.intersection(CommonlyImportedTypeNames.all).sorted() == [])
    }

    @Test(
        "the scan finds top-level declarations, also inside a top-level #if, and skips nested ones",
        arguments: [
            ("public struct A {}\n", ["A"]),
            ("#if canImport(SwiftUI)\n    public typealias B<L> = C<L>\n#endif\n", ["B"]),
            ("public struct A {\n    public enum Nested {}\n}\n", ["A"]),
            ("public struct A {\n    #if os(iOS)\n        public enum Nested {}\n    #endif\n}\n", ["A"]),
            ("@MainActor\npublic final class D {}\n", ["D"]),
            ("struct Internal {}\n", []),
        ])
    func scanner(source: String, expected: [String]) {
        #expect(Self.publicTopLevelNames(source: source).sorted() == expected)
    }

    /// The public top-level type names declared in the Swift files under a folder of the package.
    static func publicTopLevelNames(in folder: String) throws -> Set<String> {
        var declared: Set<String> = []
        let files = FileManager.default.enumerator(
            at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            declared.formUnion(publicTopLevelNames(source: try String(contentsOf: file, encoding: .utf8)))
        }
        return declared
    }

    /// The public top-level type names of one file: declarations at column 0, or indented 4 per enclosing
    /// top-level `#if` (nested types, and `#if` blocks inside a type, are indented further).
    static func publicTopLevelNames(source: String) -> Set<String> {
        let declaration =
            /^(?:@[A-Za-z_()]+\s+)*public\s+(?:final\s+)?(?:struct|enum|class|actor|protocol|typealias)\s+([A-Za-z_][A-Za-z_0-9]*)/
        var names: Set<String> = []
        var depth = 0
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " }.count
            let text = line.dropFirst(indent)
            if text.hasPrefix("#if"), indent == 4 * depth {
                depth += 1
            } else if text.hasPrefix("#endif"), depth > 0, indent == 4 * (depth - 1) {
                depth -= 1
            } else if indent == 4 * depth, let match = text.firstMatch(of: declaration) {
                names.insert(String(match.1))
            }
        }
        return names
    }
}

#if canImport(CryptoKit)
    import CryptoKit
    import Latchkey

    /// The Sign in with Apple nonce, as app code writes it with both modules imported: this file compiles only
    /// when `SHA256` is not ambiguous (runs on the first Mac CI).
    @Suite("Apple platforms: CryptoKit beside Latchkey")
    struct CryptoKitBesideLatchkeyTests {
        @Test("SHA256.hash(data:) means CryptoKit's")
        func nonceHash() {
            let digest = SHA256.hash(data: Data("nonce".utf8))
            #expect(digest.map { String(format: "%02x", $0) }.joined().hasPrefix("78377b52"))
        }
    }
#endif

#if canImport(SwiftUI) && canImport(AuthenticationServices)
    import AuthenticationServices
    import SwiftUI

    /// Sign in with Apple's own button and the generated clients' buttons, as an app file writes them with
    /// SwiftUI, AuthenticationServices and Latchkey imported: this compiles only while no name is ambiguous
    /// (runs on the first Mac CI).
    @Suite("Apple platforms: SwiftUI and AuthenticationServices beside Latchkey")
    struct SignInButtonsBesideLatchkeyTests {
        @MainActor
        @Test("SignInWithAppleButton is AuthenticationServices'; the generated ones have their own names")
        func buttons() {
            let apple = SignInWithAppleButton(.signIn) { _ in
            } onCompletion: { _ in
            }
            let generated: Any.Type = AppleSignInButton<Text>.self
            let baseIdP: Any.Type = SignInWithBaseIdPButton<Text>.self
            #expect(String(describing: type(of: apple)) == "SignInWithAppleButton")
            #expect(generated == SignInButton<Text>.self)
            #expect(baseIdP == SignInButton<Text>.self)
        }
    }
#endif
