import Foundation
import LatchkeyDescriptor
import Testing

@Suite("JSON string literals for hand-written JSON")
struct JSONStringLiteralTests {
    @Test(
        "every text round-trips through JSONSerialization",
        arguments: [
            "", "plain", "quote \" and backslash \\", "line\nfeed\r\ttab", "\u{0}\u{1}\u{1F}\u{7F}", "é 東京 🔑",
            "</script>", "\\u0041 is not an escape here",
        ])
    func roundTrips(text: String) throws {
        let literal = JSONStringLiteral.quoted(text)
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [String]
        #expect(decoded == [text])
    }

    @Test("escapes are the short forms, control characters as lowercase \\u00XX")
    func escapes() {
        #expect(JSONStringLiteral.quoted("a\"b\\c\n\u{1}") == #""a\"b\\c\n\u0001""#)
        #expect(JSONStringLiteral.quoted("\u{1F}") == #""\u001f""#)
    }
}
