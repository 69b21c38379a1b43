import LatchkeyPlatform

/// Parses JSON text into ``JSON`` in one pass over the bytes, without `Codable`.
///
/// It accepts what `JSONDecoder` decoding ``JSON`` accepted, so ``JSON/init(data:)`` reads every document
/// the same way it did: UTF-8 only (a leading byte-order mark is skipped), any value at the top, nesting at
/// most 512 deep, one trailing comma after the last element or member, the first of two equal member names
/// kept, numbers that overflow or underflow a `Double` refused, lone surrogate escapes refused.
///
/// JWS headers and payloads are read by the same parser with ``TopLevelNames/unique``: a member name the
/// top-level object repeats (after unescaping, compared as Swift strings) makes the text invalid.
package struct JSONBytesParser: ~Copyable {
    /// The deepest nesting of arrays and objects accepted (as `JSONDecoder`).
    package static let maximumDepth = 512

    /// What a repeated member name of the top-level object means.
    package enum TopLevelNames: Sendable {
        /// The first one is kept (as `JSONDecoder`).
        case firstWins
        /// The text is refused (RFC 7515 §5.2 for JWS headers and payloads).
        case unique
    }

    private let bytes: UnsafeRawBufferPointer
    private let topLevelNames: TopLevelNames
    private var index = 0

    private init(bytes: UnsafeRawBufferPointer, topLevelNames: TopLevelNames) {
        self.bytes = bytes
        self.topLevelNames = topLevelNames
    }

    /// Parses a whole JSON text; `nil` when it is not one.
    /// - Parameters:
    ///   - bytes: The UTF-8 text.
    ///   - topLevelNames: What a member name the top-level object repeats means (default: the first wins).
    package static func parse(_ bytes: UnsafeRawBufferPointer, topLevelNames: TopLevelNames = .firstWins) -> JSON? {
        var parser = JSONBytesParser(bytes: bytes, topLevelNames: topLevelNames)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { parser.index = 3 }
        parser.skipWhitespace()
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipWhitespace()
        return parser.index == bytes.count ? value : nil
    }

    // MARK: - Values

    private mutating func value(depth: Int) -> JSON? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(depth: depth + 1)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""): return string().map(JSON.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number().map(JSON.number)
        }
    }

    private mutating func object(depth: Int) -> JSON? {
        guard depth <= Self.maximumDepth else { return nil }
        index += 1
        var members: [String: JSON] = [:]
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let name = string() else { return nil }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            guard let member = value(depth: depth) else { return nil }
            // The first of two equal names wins, as with `JSONDecoder` (unless the top level must be unique).
            if members[name] == nil {
                members[name] = member
            } else if depth == 1, topLevelNames == .unique {
                return nil
            }
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return .object(members) }
            guard consume(UInt8(ascii: ",")) else { return nil }
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return .object(members) }
        }
    }

    private mutating func array(depth: Int) -> JSON? {
        guard depth <= Self.maximumDepth else { return nil }
        index += 1
        var elements: [JSON] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        while true {
            guard let element = value(depth: depth) else { return nil }
            elements.append(element)
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            guard consume(UInt8(ascii: ",")) else { return nil }
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return .array(elements) }
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSON) -> JSON? {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return nil }
        let start = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] { return nil }
        index += count
        return value
    }

    // MARK: - Numbers

    /// A number by RFC 8259's grammar; `nil` when malformed or not representable as a finite `Double`.
    private mutating func number() -> Double? {
        let start = index
        var nonZeroDigit = false
        var simpleInteger = true
        _ = consume(UInt8(ascii: "-"))
        guard index < bytes.count, isDigit(bytes[index]) else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            // A leading zero is the whole integer part.
            if index < bytes.count, isDigit(bytes[index]) { return nil }
        } else {
            nonZeroDigit = skipDigits() || nonZeroDigit
        }
        if consume(UInt8(ascii: ".")) {
            simpleInteger = false
            guard index < bytes.count, isDigit(bytes[index]) else { return nil }
            nonZeroDigit = skipDigits() || nonZeroDigit
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            simpleInteger = false
            index += 1
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard index < bytes.count, isDigit(bytes[index]) else { return nil }
            _ = skipDigits()
        }
        let text = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        if simpleInteger, text.count - (text[0] == UInt8(ascii: "-") ? 1 : 0) <= 15 {
            // At most 15 digits: exact in a Double, no conversion needed.
            var magnitude = 0
            for byte in text where byte != UInt8(ascii: "-") { magnitude = magnitude * 10 + Int(byte &- 48) }
            return text[0] == UInt8(ascii: "-") ? -Double(magnitude) : Double(magnitude)
        }
        guard let number = Double(String(decoding: text, as: UTF8.self)), number.isFinite else { return nil }
        // A non-zero literal that rounds to zero underflowed; `JSONDecoder` refuses it too.
        if number == 0, nonZeroDigit { return nil }
        return number
    }

    /// Skips a run of digits; whether one of them was not zero.
    private mutating func skipDigits() -> Bool {
        var nonZero = false
        while index < bytes.count, isDigit(bytes[index]) {
            if bytes[index] != UInt8(ascii: "0") { nonZero = true }
            index += 1
        }
        return nonZero
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: - Strings

    /// The string whose opening quote is at `index`; `nil` for invalid UTF-8, a raw control character, a
    /// bad escape or a missing closing quote.
    private mutating func string() -> String? {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(validatingUTF8Bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return escapedString(from: start) }
            if byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    /// The rest of a string that holds an escape, from its first byte at `start`.
    private mutating func escapedString(from start: Int) -> String? {
        var utf8 = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(validatingUTF8Bytes: utf8)
            case UInt8(ascii: "\\"):
                guard let scalar = escape() else { return nil }
                utf8.append(contentsOf: UTF8.encode(scalar)!)
            case 0..<0x20: return nil
            default: utf8.append(byte)
            }
        }
        return nil
    }

    /// The scalar of the escape after a backslash.
    private mutating func escape() -> Unicode.Scalar? {
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { return nil }
            switch unit {
            case 0xD800...0xDBFF:
                guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let low = hex4(),
                    (0xDC00...0xDFFF).contains(low)
                else { return nil }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            case 0xDC00...0xDFFF: return nil
            default: return Unicode.Scalar(unit)
            }
        default: return nil
        }
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    // MARK: - Scanning

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }
}
