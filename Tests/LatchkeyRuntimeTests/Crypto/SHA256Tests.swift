import Foundation
import LatchkeyRuntime
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    @Test("FIPS 180-2 vectors")
    func vectors() {
        #expect(
            TestVectorHex.string(SHA256.hash([UInt8]()))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            TestVectorHex.string(SHA256.hash("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            TestVectorHex.string(SHA256.hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("Data overload matches the byte overload")
    func dataOverload() {
        let bytes: [UInt8] = Array(0...255)
        #expect(SHA256.hash(Data(bytes)) == SHA256.hash(bytes))
        #expect(SHA256.hash(Data(bytes)).count == 32)
    }
}
