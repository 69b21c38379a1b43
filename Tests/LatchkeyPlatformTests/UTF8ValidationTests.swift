import LatchkeyPlatform
import Testing

@Suite("Strict UTF-8 decoding: the fallback agrees with String(validating:as:)")
struct UTF8ValidationTests {
    static let samples: [[UInt8]] = [
        [], Array("plain".utf8), Array("é日本🔑".utf8), [0xEF, 0xBF, 0xBD],  // U+FFFD itself is valid
        [0xC3], [0xC3, 0x28], [0xE2, 0x28, 0xA1], [0xF0, 0x9F, 0x94],  // truncated / bad continuation
        [0xC0, 0xAF], [0xE0, 0x80, 0xAF],  // overlong
        [0xED, 0xA0, 0x80],  // a surrogate
        [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
        [0xFF], Array("ok".utf8) + [0x80] + Array("tail".utf8),
    ]

    @Test("same answer as the standard library", arguments: samples)
    func agrees(bytes: [UInt8]) {
        let reference = String(validating: bytes, as: UTF8.self)
        #expect(String(strictlyDecodingUTF8: bytes) == reference)
        #expect(String(validatingUTF8Bytes: bytes) == reference)
    }
}
