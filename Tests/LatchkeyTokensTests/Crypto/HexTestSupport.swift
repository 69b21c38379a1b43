/// Hex helpers for test vectors.
enum TestVectorHex {
    static func bytes(_ text: String) -> [UInt8] {
        var output: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            output.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return output
    }

    static func string(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
