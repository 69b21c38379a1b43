import Foundation
import Testing

/// Issue 17, item 5: `import Latchkey` re-exports the runtime, so a public top-level name that an Apple SDK
/// (or a package apps commonly import beside it) also declares makes every unqualified use in an app file
/// ambiguous: "'SHA256' is ambiguous". This scans the runtime's public top-level declarations for them.
@Suite("Apple platforms: public names do not collide with the SDKs apps import")
struct PublicNameCollisionTests {
    /// Names declared by CryptoKit, Foundation, AuthenticationServices, Security, swift-http-types (`HTTPTypes`)
    /// and swift-openapi-urlsession that an app file is likely to write unqualified.
    static let platformNames: Set<String> = [
        // CryptoKit
        "SHA256", "SHA384", "SHA512", "Insecure", "HMAC", "SymmetricKey", "P256", "P384", "P521", "Curve25519",
        "AES", "ChaChaPoly", "HKDF", "SharedSecret", "Digest", "HashFunction", "SHA256Digest",
        // Foundation
        "Data", "URL", "Date", "Host", "Process", "Expression", "Predicate", "Notification", "Operation", "Stream",
        "Port", "Thread", "Timer", "Progress", "Bundle", "Locale", "Calendar", "Measurement", "Unit", "Scanner",
        "JSONEncoder", "JSONDecoder", "URLSession", "URLRequest", "HTTPURLResponse", "UUID", "Decimal",
        // AuthenticationServices, Security
        "ASWebAuthenticationSession", "ASAuthorization", "ASPresentationAnchor", "SecKey", "SecItem",
        // swift-http-types
        "HTTPRequest", "HTTPResponse", "HTTPFields", "HTTPField",
        // swift-openapi-urlsession / swift-openapi-runtime
        "URLSessionTransport", "ClientTransport", "ClientMiddleware",
    ]

    @Test("no public top-level runtime name is one the platform SDKs declare")
    func noCollisions() throws {
        let runtime = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/LatchkeyRuntime")
        let pattern = try NSRegularExpression(
            pattern:
                #"^( *)(?:@[A-Za-z_()]+\s+)*public\s+(?:final\s+)?(?:struct|enum|class|actor|protocol|typealias)\s+([A-Za-z_][A-Za-z_0-9]*)"#,
            options: [.anchorsMatchLines])
        var declared: Set<String> = []
        let files = FileManager.default.enumerator(at: runtime, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            // Top level only: at column 0, or at 4 in a file wrapped in `#if` (nested types are indented more).
            let topIndent = text.hasPrefix("#if") ? 4 : 0
            for match in pattern.matches(in: text, range: range) where match.range(at: 1).length == topIndent {
                declared.insert(String(text[Range(match.range(at: 2), in: text)!]))
            }
        }
        #expect(declared.count > 50, "the scan found the runtime's public types")
        #expect(declared.intersection(Self.platformNames).sorted() == [])
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
