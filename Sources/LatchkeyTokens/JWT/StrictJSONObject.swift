import Foundation

/// Decodes the JSON object of a JWS header or payload strictly: UTF-8 only, an object at the top, and
/// no member name twice (RFC 7515 §5.2 — `JSONDecoder` would silently keep the first of two `alg`s).
package enum StrictJSONObject {
    /// The object's members, or `nil` when the bytes are not a UTF-8 JSON object with unique member names.
    /// - Parameter bytes: The decoded base64url part.
    package static func decode(_ bytes: [UInt8]) -> [String: JSON]? {
        guard String(validating: bytes, as: UTF8.self) != nil,
            bytes.first(where: { !isWhitespace($0) }) == UInt8(ascii: "{"),
            let members = JSON(data: Data(bytes))?.object,
            !hasDuplicateMemberNames(bytes)
        else { return nil }
        return members
    }

    /// Whether the top-level object of a **valid** JSON text repeats a member name (after unescaping;
    /// names that are canonically equivalent Swift strings count as repeats too).
    package static func hasDuplicateMemberNames(_ bytes: [UInt8]) -> Bool {
        var names = Set<String>()
        var depth = 0
        var expectingName = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectingName = depth == 1 && byte == UInt8(ascii: "{")
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                index += 1
            case UInt8(ascii: ","):
                expectingName = depth == 1
                index += 1
            case UInt8(ascii: "\""):
                guard let (text, next) = readString(bytes, from: index) else { return true }
                if expectingName {
                    guard names.insert(text).inserted else { return true }
                    expectingName = false
                }
                index = next
            default:
                index += 1
            }
        }
        return false
    }

    /// Reads the string starting at the quote at `start`; returns its unescaped text and the index after
    /// the closing quote, or `nil` for an invalid escape.
    private static func readString(_ bytes: [UInt8], from start: Int) -> (String, Int)? {
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        var index = start + 1
        func flushRaw() {
            scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
            raw.removeAll()
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flushRaw()
                return (String(scalars), index + 1)
            }
            guard byte == UInt8(ascii: "\\") else {
                raw.append(byte)
                index += 1
                continue
            }
            flushRaw()
            guard index + 1 < bytes.count else { return nil }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                guard let high = hex4(bytes, at: index) else { return nil }
                index += 4
                var value = high
                if (0xD800...0xDBFF).contains(high) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u"), let low = hex4(bytes, at: index + 2),
                        (0xDC00...0xDFFF).contains(low)
                    else { return nil }
                    index += 6
                    value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(value) else { return nil }
                scalars.append(scalar)
            default:
                return nil
            }
        }
        return nil
    }

    private static func hex4(_ bytes: [UInt8], at start: Int) -> UInt32? {
        guard start + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[start..<start + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
