import LatchkeyTokens
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

@Suite("PASETO pre-authentication encoding")
struct PasetoPreAuthenticationEncodingTests {
    @Test("the specification's examples (Common.md)")
    func specificationExamples() {
        #expect(PreAuthenticationEncoding.encode([]) == [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(PreAuthenticationEncoding.encode([[]]) == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(
            PreAuthenticationEncoding.encode([Array("test".utf8)])
                == [1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0] + Array("test".utf8))
    }

    @Test("lengths are little-endian and frame each piece")
    func framing() {
        let piece = [UInt8](repeating: 0xAB, count: 0x0102)
        let encoded = PreAuthenticationEncoding.encode([piece, [7]])
        #expect(Array(encoded[0..<8]) == [2, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(encoded[8..<16]) == [0x02, 0x01, 0, 0, 0, 0, 0, 0])
        #expect(Array(encoded[16..<(16 + 0x0102)]) == piece)
        #expect(Array(encoded[(16 + 0x0102)...]) == [1, 0, 0, 0, 0, 0, 0, 0, 7])
    }

    @Test("LE64 clears the most significant bit")
    func mostSignificantBitCleared() {
        var output: [UInt8] = []
        PreAuthenticationEncoding.appendLE64(UInt64.max, to: &output)
        #expect(output == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
        output = []
        PreAuthenticationEncoding.appendLE64(0x8000_0000_0000_0001, to: &output)
        #expect(output == [1, 0, 0, 0, 0, 0, 0, 0])
    }
}
