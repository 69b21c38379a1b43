@_spi(Generated) import LatchkeyRuntime
import LatchkeyTokens
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    @Test("encodes without padding, with the URL alphabet")
    func encode() {
        #expect(Base64URL.encode([UInt8]()) == "")
        #expect(Base64URL.encode([0x66]) == "Zg")
        #expect(Base64URL.encode([0x66, 0x6F]) == "Zm8")
        #expect(Base64URL.encode([0x66, 0x6F, 0x6F]) == "Zm9v")
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
    }

    @Test("decodes with and without padding")
    func decode() {
        #expect(Base64URL.decode("Zg") == [0x66])
        #expect(Base64URL.decode("Zg==") == [0x66])
        #expect(Base64URL.decode("Zm8") == [0x66, 0x6F])
        #expect(Base64URL.decode("Zm8=") == [0x66, 0x6F])
        #expect(Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
        #expect(Base64URL.decode("") == [])
    }

    @Test(
        "rejects invalid input",
        arguments: ["Zm9v+", "Zm9/", "Zm 9v", "Z", "Zg=", "Zg===", "Z===", "Zm=8", "Zh", "Zm9v\n"])
    func rejects(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("round-trips every length up to 64")
    func roundTrip() {
        let random = SeededRandomSource(seed: "base64")
        for count in 0...64 {
            let bytes = random.bytes(count: count)
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("="))
            #expect(Base64URL.decode(text) == bytes)
        }
    }
}
