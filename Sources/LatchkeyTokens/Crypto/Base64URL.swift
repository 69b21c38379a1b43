import Foundation

/// Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it.
public enum Base64URL {
    /// Encodes bytes as base64url without padding.
    /// - Parameter bytes: The bytes.
    /// - Returns: The encoded string.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    /// Decodes base64url strictly: only `A-Z a-z 0-9 - _`, padding optional but correct if present,
    /// and the encoding must be canonical (unused trailing bits zero).
    /// - Parameter text: The encoded string.
    /// - Returns: The bytes, or `nil` when the text is not valid base64url.
    public static func decode(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        var padding = 0
        while body.last == "=" {
            body.removeLast()
            padding += 1
        }
        let utf8 = Array(body.utf8)
        if padding > 0, padding > 2 || (utf8.count + padding) % 4 != 0 { return nil }
        guard utf8.count % 4 != 1 else { return nil }
        var standard = [UInt8]()
        standard.reserveCapacity(utf8.count + 3)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                standard.append(byte)
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        guard let data = Data(base64Encoded: Data(standard)) else { return nil }
        let bytes = Array(data)
        // Reject non-canonical encodings (non-zero unused bits), so one value has one encoding.
        guard encode(bytes) == String(decoding: utf8, as: UTF8.self) else { return nil }
        return bytes
    }
}
