import Foundation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// `JSON(data:)` parses in one pass without `Codable`; it must accept, refuse and build exactly what
/// `JSONDecoder` decoding ``JSON`` (its `Decodable` conformance, the earlier parser) does.
@Suite("Session: the JSON parser agrees with JSONDecoder")
struct JSONParserEquivalenceTests {
    /// What `JSONDecoder` makes of the bytes through `JSON`'s `Decodable` conformance.
    private static func reference(_ bytes: [UInt8]) -> JSON? {
        try? JSONDecoder().decode(JSON.self, from: Data(bytes))
    }

    private static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    static let documents: [String] = [
        // Token responses and user documents as providers send them.
        #"{"access_token":"at-1","token_type":"bearer","expires_in":3600,"refresh_token":"rt-1","user":{"id":"u1","email":"ada@example.com","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{},"aud":"authenticated","confirmed_at":"2024-01-01T00:00:00Z"}}"#,
        #"{"error":"invalid_grant","error_description":"Invalid Refresh Token: Already Used"}"#,
        " \t\r\n{ \"a\" : [ 1 , 2 , { } , [ ] ] , \"b\" : null } \n",
        // Scalars at the top.
        "1", "-0", "0", "true", "false", "null", #""text""#, "\"\"", " 1 ",
        // Numbers.
        "1.5", "-1.5e3", "1E5", "1e+5", "1e-5", "123456789012345", "1234567890123456", "9007199254740993",
        "12345678901234567890123", "0.1", "0.30000000000000004", "2.2250738585072014e-308", "4.9e-324",
        "1.7976931348623157e308", "1e400", "-1e400", "1e-400", "0e-400", "0.000", "01", "-01", "1.", ".5",
        "+1", "-", "1e", "1e+", "0x10", "NaN", "Infinity", "-Infinity", "1_000", "[1.0]", "[-0.0]",
        // Strings.
        #""\"\\\/\b\f\n\r\t""#, #""\u0041\u00e9\u4e2d""#, #""\ud83d\ude00""#, #""\ud800""#, #""\udc00""#,
        #""\ud83d\u0041""#, #""\ud83d""#, #""\u0000""#, #""\u12""#, #""\x""#, "\"a\tb\"", "\"a\u{7F}b\"",
        "\"é中😀\"", "\"unterminated", #""\"#, "\"\\u00", #"{"e\u0301":1,"é":2}"#,
        // Objects and arrays.
        #"{"a":1,"a":2}"#, "[1,]", #"{"a":1,}"#, "[,]", "{,}", "[1,,]", "[1 2]", #"{"a" 1}"#, #"{"a":}"#,
        "{1:2}", "{\"a\":1", "[1", "[", "{", "]", "}", "", " ", "\u{0C}1", "true x", "nul", "tru", "[true,false,null]",
        nested(2), nested(511), nested(512), nested(513), nested(5_000),
        #"{"a":{"b":{"c":[{"d":[[]]}]}}}"#,
    ]

    @Test("the same value or the same refusal as JSONDecoder", arguments: documents)
    func agrees(text: String) {
        let bytes = Array(text.utf8)
        #expect(JSON(data: Data(bytes)) == Self.reference(bytes))
    }

    @Test("bytes that are not UTF-8, byte-order marks, UTF-16, NUL and other raw bytes")
    func rawBytes() {
        let samples: [[UInt8]] = [
            [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0xEF, 0xBB, 0xBF, 0x31],
            [0xEF, 0xBB, 0xBF], [0x31, 0x00], [0x00], [0x22, 0x00, 0x22], [0xFE, 0xFF, 0x00, 0x31],
            [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D], [0x22, 0x5C, 0x75, 0x30, 0x30, 0x65, 0x39, 0xC3, 0xA9, 0x22],
        ]
        let utf16 = #"{"a":[1,"é"]}"#.utf16
        let utf16LE = utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let utf16BE = utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for bytes in samples + [utf16LE, utf16BE, [0xFF, 0xFE] + utf16LE, [0xFE, 0xFF] + utf16BE] {
            #expect(JSON(data: Data(bytes)) == Self.reference(bytes), "bytes \(bytes)")
        }
    }

    @Test("random mutations of a token response")
    func mutations() {
        var random = SplitMix64(seed: 0x4C61_7463_686B_6579)
        let seed = Array(Self.documents[0].utf8)
        let alphabet = Array(#"{}[]:,"\ 0123456789.eE+-tfnul\/"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF]
        for _ in 0..<2_000 {
            var bytes = seed
            for _ in 0..<Int(random.next() % 4 + 1) {
                let position = Int(random.next() % UInt64(bytes.count))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                default: bytes.remove(at: position)
                }
            }
            #expect(JSON(data: Data(bytes)) == Self.reference(bytes), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }
}

/// A small seeded generator, so a failing mutation can be reproduced.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
