@_spi(Generated) import LatchkeyRuntime
import Testing

@Suite("PKCE and random tokens")
struct PKCETests {
    @Test("RFC 7636 appendix B vector")
    func rfcVector() {
        #expect(
            PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test("RFC 7636 verifier from the appendix's octets")
    func rfcVerifierFromBytes() {
        let octets: [UInt8] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214,
            191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
        ]
        #expect(PKCE.makeVerifier(using: FixedSource(octets)) == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    }

    @Test("verifiers are 43 valid characters and differ")
    func verifiers() {
        let first = PKCE.makeVerifier()
        let second = PKCE.makeVerifier()
        #expect(first.count == 43)
        #expect(PKCE.isValidVerifier(first))
        #expect(first != second)
    }

    @Test("verifier validation")
    func validation() {
        #expect(PKCE.isValidVerifier(String(repeating: "a", count: 43)))
        #expect(PKCE.isValidVerifier(String(repeating: "-._~", count: 32)))
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 42)))
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 129)))
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 42) + "+"))
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 42) + "é"))
    }

    @Test("seeded sources are deterministic, whatever the chunking")
    func seeded() {
        let one = SeededRandomSource(seed: "seed")
        let two = SeededRandomSource(seed: "seed")
        let other = SeededRandomSource(seed: "other")
        let whole = one.bytes(count: 100)
        #expect(two.bytes(count: 7) + two.bytes(count: 60) + two.bytes(count: 33) == whole)
        #expect(other.bytes(count: 100) != whole)
        #expect(
            PKCE.makeVerifier(using: SeededRandomSource(seed: "x"))
                == PKCE.makeVerifier(using: SeededRandomSource(seed: "x")))
    }

    @Test("system random bytes")
    func systemRandom() {
        let source = SystemRandomSource()
        #expect(source.bytes(count: 0).isEmpty)
        let a = source.bytes(count: 32)
        let b = source.bytes(count: 32)
        #expect(a.count == 32)
        #expect(a != b)
    }

    @Test("random tokens")
    func tokens() {
        #expect(RandomToken.make().count == 43)
        #expect(RandomToken.make(bytes: 16).count == 22)
        #expect(RandomToken.make() != RandomToken.make())
        #expect(RandomToken.make(using: FixedSource([0xFB, 0xFF, 0xBF])).hasPrefix("-_-_"))
    }
}

/// Returns the given bytes, then zeros.
private struct FixedSource: RandomSource {
    let fixed: [UInt8]
    init(_ fixed: [UInt8]) { self.fixed = fixed }
    func bytes(count: Int) -> [UInt8] {
        Array((fixed + [UInt8](repeating: 0, count: max(0, count - fixed.count))).prefix(count))
    }
}
