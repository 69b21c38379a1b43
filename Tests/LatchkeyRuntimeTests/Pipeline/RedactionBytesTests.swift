import Foundation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// How ``AuthError/redact(_:_:)`` cuts secrets out of text: by UTF-8 bytes (the wire behaviour is in
/// `EchoedSecretRedactionTests`).
@Suite("Pipeline: redaction compares bytes")
struct RedactionBytesTests {
    private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("a secret with NUL bytes, anywhere in it, is cut whole, every time it appears")
    func nulBytes() {
        for secret in ["\u{0}abcdefgh-tail", "ab\u{0}cdefgh-tail", "abcdefgh\u{0}tail", "abcdefg-tail\u{0}"] {
            let text = "x '\(secret)' y \(secret)."
            #expect(Self.bytes(AuthError.redact(text, [secret])) == Self.bytes("x '<redacted>' y <redacted>."))
        }
    }

    @Test("an echo of the secret in the other normalization form is cut too")
    func normalizationForms() {
        let composed = "pass-\u{E9}t\u{E9}-word"
        let decomposed = "pass-e\u{301}te\u{301}-word"
        #expect(Self.bytes(AuthError.redact("[\(decomposed)]", [composed])) == Self.bytes("[<redacted>]"))
        #expect(Self.bytes(AuthError.redact("[\(composed)]", [decomposed])) == Self.bytes("[<redacted>]"))
    }

    @Test("a cut never splits a character: a run that ends inside one ends before it")
    func characterBoundary() {
        // "é" is C3 A9 and "è" is C3 A8: the echo shares the secret's first byte of that character only.
        let redacted = AuthError.redact("abcdefgh-\u{E8}!", ["abcdefgh-\u{E9}"])
        #expect(Self.bytes(redacted) == Self.bytes("<redacted>\u{E8}!"))
    }

    @Test("a secret's echo with a combining mark after it is cut to its last character")
    func combiningMarkAfterSecret() {
        let redacted = AuthError.redact("'abcdefgh-tape\u{301}'", ["abcdefgh-tape"])
        #expect(Self.bytes(redacted) == Self.bytes("'<redacted>\u{301}'"))
    }

    @Test("secrets shorter than 8 characters and texts without a secret are left alone")
    func untouched() {
        let error = AuthError(.invalidGrant, "code 1234567 and abcdefgh", provider: "acme")
        #expect(error.redacting(["1234567", nil]).message == "code 1234567 and abcdefgh")
        #expect(error.redacting(["zzzzzzzzzz"]).message == "code 1234567 and abcdefgh")
        #expect(error.redacting(["abcdefgh"]).message == "code 1234567 and <redacted>")
    }
}
