@_spi(Generated) import LatchkeyRuntime
import LatchkeyTokens
import Testing

/// The one constant-time compare that nonces, token hashes and PASETO footers share.
@Suite("Constant-time compare")
struct ConstantTimeTests {
    @Test("equal bytes, a difference in the last byte, and different lengths")
    func bytes() {
        #expect(ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 4] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
        #expect(ConstantTime.equals([UInt8](), [UInt8]()))
    }

    @Test("strings compare by their UTF-8 bytes, across collection types")
    func strings() {
        #expect(ConstantTime.equals("n-0S6_WzA2Mj", "n-0S6_WzA2Mj"))
        #expect(!ConstantTime.equals("n-0S6_WzA2Mj", "n-0S6_WzA2Mk"))
        #expect(!ConstantTime.equals("é", "e\u{301}"))
        #expect(ConstantTime.equals(Array("kid".utf8), "kid".utf8))
    }
}
