import LatchkeyPlatform

/// Percent-encoding for form bodies and query strings (RFC 3986: only unreserved characters stay).
enum PercentEncoding {
    /// Encodes text, leaving only `A-Z a-z 0-9 - . _ ~` as they are.
    static func encode(_ text: String) -> String {
        // Most names and values (grant types, client ids, tokens) need no escape at all.
        if text.utf8.allSatisfy(isUnreserved) { return text }
        var out: [UInt8] = []
        append(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Encodes name-value pairs as `a=1&b=2`, in order.
    static func encodePairs(_ pairs: [(name: String, value: String)]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(pairs.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 })
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "&")) }
            append(pair.name, to: &out)
            out.append(UInt8(ascii: "="))
            append(pair.value, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the encoded bytes of `text`.
    private static func append(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            }
        }
    }

    /// Decodes `%XX` escapes (and `+` as a space when `plusIsSpace`); `nil` for a malformed escape or
    /// bytes that are not UTF-8.
    static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validatingUTF8Bytes: bytes)
    }

    /// Whether a byte is an RFC 3986 `unreserved` character (`ALPHA / DIGIT / "-" / "." / "_" / "~"`).
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
