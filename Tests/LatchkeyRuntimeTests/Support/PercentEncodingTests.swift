import Foundation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// Form and query encoding against Foundation's own percent-encoding with RFC 3986's unreserved set, and
/// back through the decoder.
@Suite("Support: percent-encoding")
struct PercentEncodingTests {
    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static let texts = [
        "", "password", "refresh_token", "eyJhbGciOi.x-y_z~", "a b", "a+b=c&d", "ada@example.com",
        "é 東京 🔑", "100%", "/?#[]@!$'()*,;", "line\nbreak\u{0}", "https://idp.example/cb?x=1",
    ]

    @Test("encode gives Foundation's addingPercentEncoding with the unreserved set, and decodes back")
    func matchesFoundation() throws {
        for text in Self.texts {
            let expected = try #require(text.addingPercentEncoding(withAllowedCharacters: Self.unreserved))
            #expect(PercentEncoding.encode(text) == expected, "\(text)")
            #expect(PercentEncoding.decode(Substring(PercentEncoding.encode(text))) == text)
        }
    }

    @Test("pairs are joined in order with = and &, each side encoded")
    func pairs() throws {
        let pairs = Self.texts.enumerated().map { (name: "n\($0.offset) \($0.element)", value: $0.element) }
        let expected = try pairs.map {
            try #require($0.name.addingPercentEncoding(withAllowedCharacters: Self.unreserved)) + "="
                + #require($0.value.addingPercentEncoding(withAllowedCharacters: Self.unreserved))
        }.joined(separator: "&")
        #expect(PercentEncoding.encodePairs(pairs) == expected)
        #expect(PercentEncoding.encodePairs([]) == "")
    }
}
