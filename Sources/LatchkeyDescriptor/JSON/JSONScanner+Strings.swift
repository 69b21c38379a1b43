extension JSONScanner {
    /// Scans a string whose opening quote is the current byte and returns it with escapes decoded.
    mutating func scanString() throws(JSONSyntaxError) -> String {
        let start = location
        offset += 1
        var segmentStart = offset
        var decoded: [UInt8] = []
        var hasEscapes = false
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let segment = UnsafeBufferPointer(rebasing: bytes[segmentStart..<offset])
                offset += 1
                if !hasEscapes { return String(decoding: segment, as: UTF8.self) }
                decoded.append(contentsOf: segment)
                return String(decoding: decoded, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segmentStart..<offset]))
                try scanEscape(into: &decoded, stringStart: start)
                segmentStart = offset
                continue
            }
            if byte < 0x20 { throw controlCharacterError(byte, stringStart: start) }
            if byte < 0x80 {
                offset += 1
                continue
            }
            guard let length = utf8Length(at: offset) else { throw invalidUTF8Error() }
            offset += length
            continuationBytes += length - 1
        }
        throw unterminatedString(start)
    }

    private func unterminatedString(_ start: SourceLocation) -> JSONSyntaxError {
        JSONSyntaxError(
            "unexpected end of file: the string started at \(start) is not closed", at: location,
            fixIt: "add the closing '\"'")
    }

    private func controlCharacterError(_ byte: UInt8, stringStart: SourceLocation) -> JSONSyntaxError {
        let escape: String
        let name: String
        switch byte {
        case 0x00: (escape, name) = ("\\u0000", " (NUL)")
        case 0x08: (escape, name) = ("\\b", " (backspace)")
        case 0x09: (escape, name) = ("\\t", " (tab)")
        case 0x0A: (escape, name) = ("\\n", " (line feed)")
        case 0x0C: (escape, name) = ("\\f", " (form feed)")
        case 0x0D: (escape, name) = ("\\r", " (carriage return)")
        default: (escape, name) = ("\\u00" + Self.hex(byte).dropFirst(2), "")
        }
        var fixIt = "write it as \(escape)"
        if byte == 0x0A || byte == 0x0D {
            fixIt += ", or close the string started at \(stringStart) with '\"'"
        }
        return JSONSyntaxError(
            "unescaped control character \(Self.scalarCode(Unicode.Scalar(byte)))\(name) in a string",
            at: location, fixIt: fixIt)
    }

    /// Decodes the escape sequence whose backslash is the current byte, appending its UTF-8.
    private mutating func scanEscape(into decoded: inout [UInt8], stringStart: SourceLocation) throws(JSONSyntaxError) {
        let backslash = location
        offset += 1
        guard offset < bytes.count else { throw unterminatedString(stringStart) }
        let byte = bytes[offset]
        let simple: UInt8? =
            switch byte {
            case UInt8(ascii: "\""): 0x22
            case UInt8(ascii: "\\"): 0x5C
            case UInt8(ascii: "/"): 0x2F
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple {
            offset += 1
            decoded.append(simple)
            return
        }
        guard byte == UInt8(ascii: "u") else {
            if byte >= 0x80, utf8Length(at: offset) == nil { throw invalidUTF8Error() }
            let shown: String
            if byte < 0x20 || byte == 0x7F {
                shown = "\\ followed by \(Self.scalarCode(Unicode.Scalar(byte)))"
            } else if let scalar = scalar(at: offset) {
                shown = "'\\\(Character(scalar))'"
            } else {
                shown = "'\\'"
            }
            throw JSONSyntaxError(
                "invalid escape sequence \(shown) in a string", at: backslash,
                fixIt: "valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX; write a backslash as \\\\")
        }
        offset += 1
        let (first, firstText) = try scanHex4(backslash: backslash, stringStart: stringStart)
        var scalarValue = UInt32(first)
        switch first {
        case 0xD800...0xDBFF:
            let second = location
            guard self.byte(at: offset) == UInt8(ascii: "\\"), self.byte(at: offset + 1) == UInt8(ascii: "u") else {
                if isAtEnd { throw unterminatedString(stringStart) }
                throw loneSurrogate(firstText, at: backslash)
            }
            offset += 2
            let (low, _) = try scanHex4(backslash: second, stringStart: stringStart)
            guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(firstText, at: backslash) }
            scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        case 0xDC00...0xDFFF:
            throw loneSurrogate(firstText, at: backslash)
        default:
            break
        }
        Self.appendUTF8(scalarValue, to: &decoded)
    }

    /// Appends the UTF-8 encoding of a scalar value (never a surrogate: those are combined or rejected).
    private static func appendUTF8(_ value: UInt32, to bytes: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            bytes.append(UInt8(value))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | value >> 6))
            bytes.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | value >> 12))
            bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | value >> 18))
            bytes.append(UInt8(0x80 | value >> 12 & 0x3F))
            bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        }
    }

    private func loneSurrogate(_ text: String, at location: SourceLocation) -> JSONSyntaxError {
        JSONSyntaxError(
            "lone surrogate \\u\(text) in a string: a high surrogate (\\uD800-\\uDBFF) must be followed by a low surrogate (\\uDC00-\\uDFFF)",
            at: location, fixIt: "write the character itself, or its complete surrogate pair")
    }

    /// Reads the four hex digits after `\u`.
    private mutating func scanHex4(
        backslash: SourceLocation, stringStart: SourceLocation
    ) throws(JSONSyntaxError) -> (UInt16, String) {
        var value: UInt16 = 0
        for index in 0..<4 {
            guard offset < bytes.count else { throw unterminatedString(stringStart) }
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                if byte >= 0x80, utf8Length(at: offset) == nil { throw invalidUTF8Error() }
                throw JSONSyntaxError(
                    "invalid \\u escape in a string: expected 4 hex digits, found \(describe(at: offset, wholeWord: false)) after \(index) digit\(index == 1 ? "" : "s")",
                    at: backslash, fixIt: "write \\u followed by exactly 4 hex digits, e.g. \\u00e9")
            }
            value = value << 4 | UInt16(digit)
            offset += 1
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[(offset - 4)..<offset]), as: UTF8.self)
        return (value, text)
    }
}
