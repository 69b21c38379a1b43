import LatchkeyTokens

/// The byte writing a DPoP proof needs, straight into one buffer: base64url without padding (RFC 4648 §5) and
/// JSON members. A proof is made for every request of a DPoP session, so it is built as bytes rather than
/// through `Data`'s base64 and `String` edits.
enum DPoPEncoding {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Appends the base64url encoding of `bytes`, without padding.
    static func appendBase64URL(_ bytes: [UInt8], to out: inout [UInt8]) {
        out.reserveCapacity(out.count + (bytes.count * 4 + 2) / 3)
        alphabet.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { input in
                var index = 0
                while index + 3 <= input.count {
                    let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                    out.append(table[Int(chunk >> 18)])
                    out.append(table[Int(chunk >> 12 & 0x3F)])
                    out.append(table[Int(chunk >> 6 & 0x3F)])
                    out.append(table[Int(chunk & 0x3F)])
                    index += 3
                }
                switch input.count - index {
                case 1:
                    let chunk = UInt32(input[index]) << 16
                    out.append(table[Int(chunk >> 18)])
                    out.append(table[Int(chunk >> 12 & 0x3F)])
                case 2:
                    let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
                    out.append(table[Int(chunk >> 18)])
                    out.append(table[Int(chunk >> 12 & 0x3F)])
                    out.append(table[Int(chunk >> 6 & 0x3F)])
                default: break
                }
            }
        }
    }

    /// Appends `"name":"value"` (the value escaped as a JSON string), after a `,` unless it is the first member.
    static func appendMember(_ name: StaticString, string value: String, to out: inout [UInt8]) {
        appendName(name, to: &out)
        JSON.writeString(value, to: &out)
    }

    /// Appends `"name":` and the digits of a whole number.
    static func appendMember(_ name: StaticString, integer value: Int64, to out: inout [UInt8]) {
        appendName(name, to: &out)
        out.append(contentsOf: String(value).utf8)
    }

    private static func appendName(_ name: StaticString, to out: inout [UInt8]) {
        if out.last != UInt8(ascii: "{") { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: #"":"#.utf8)
    }
}
