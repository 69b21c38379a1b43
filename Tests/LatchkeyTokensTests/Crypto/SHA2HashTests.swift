import Foundation
import LatchkeyTokens
import Testing

@Suite("SHA-256")
struct SHA2HashTests {
    @Test("FIPS 180-2 vectors")
    func vectors() {
        #expect(
            TestVectorHex.string(SHA2Hash.sha256([UInt8]()))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            TestVectorHex.string(SHA2Hash.sha256("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            TestVectorHex.string(SHA2Hash.sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("Data overload matches the byte overload")
    func dataOverload() {
        let bytes: [UInt8] = Array(0...255)
        #expect(SHA2Hash.sha256(Data(bytes)) == SHA2Hash.sha256(bytes))
        #expect(SHA2Hash.sha256(Data(bytes)).count == 32)
    }
}
