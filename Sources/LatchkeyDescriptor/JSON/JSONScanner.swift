/// A cursor over UTF-8 bytes that skips JSON whitespace and knows the line and column of its position.
///
/// Lines end at LF, CR LF or a lone CR. Columns count Unicode scalars: non-ASCII bytes can only be
/// consumed inside strings, where the scanner adds each scalar's continuation bytes to
/// `continuationBytes`, so a location is O(1). A UTF-8 byte order mark at the very start of the
/// input is skipped and does not count as a column.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The position of the next byte.
    var offset = 0
    private var line = 1
    private var lineStart = 0
    /// UTF-8 continuation bytes consumed since `lineStart`.
    var continuationBytes = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            offset = 3
            lineStart = 3
        }
    }

    /// Whether all input has been consumed.
    var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte, or nil at the end.
    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// The byte at `position`, or nil past the end.
    func byte(at position: Int) -> UInt8? {
        position >= 0 && position < bytes.count ? bytes[position] : nil
    }

    /// Where the next byte is.
    var location: SourceLocation {
        SourceLocation(line: line, column: offset - lineStart - continuationBytes + 1)
    }

    /// Consumes one ASCII byte that is not a line break.
    mutating func advance() {
        offset += 1
    }

    /// Consumes `byte` when it is next.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    /// Skips spaces, tabs and line breaks.
    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09:
                offset += 1
            case 0x0A:
                offset += 1
                startLine()
            case 0x0D:
                offset += 1
                if offset < bytes.count, bytes[offset] == 0x0A { offset += 1 }
                startLine()
            default:
                return
            }
        }
    }

    private mutating func startLine() {
        line += 1
        lineStart = offset
        continuationBytes = 0
    }

    // MARK: - Byte classes

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"):
            true
        default:
            false
        }
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "_"), UInt8(ascii: "$"):
            true
        default:
            false
        }
    }

    /// The run of ASCII letters, digits, `_` and `$` starting at `position` (up to its end offset).
    func word(at position: Int) -> (text: String, end: Int) {
        var end = position
        while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
        return (text, end)
    }

    // MARK: - UTF-8

    /// The length of the well-formed UTF-8 scalar starting at `position` (a byte >= 0x80), or nil.
    func utf8Length(at position: Int) -> Int? {
        let count = bytes.count
        func continuation(_ i: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            i < count && range.contains(bytes[i])
        }
        switch bytes[position] {
        case 0xC2...0xDF:
            return continuation(position + 1) ? 2 : nil
        case 0xE0:
            return continuation(position + 1, 0xA0...0xBF) && continuation(position + 2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(position + 1) && continuation(position + 2) ? 3 : nil
        case 0xED:
            return continuation(position + 1, 0x80...0x9F) && continuation(position + 2) ? 3 : nil
        case 0xF0:
            return continuation(position + 1, 0x90...0xBF) && continuation(position + 2)
                && continuation(position + 3) ? 4 : nil
        case 0xF1...0xF3:
            return continuation(position + 1) && continuation(position + 2) && continuation(position + 3)
                ? 4 : nil
        case 0xF4:
            return continuation(position + 1, 0x80...0x8F) && continuation(position + 2)
                && continuation(position + 3) ? 4 : nil
        default:
            return nil
        }
    }

    /// The scalar starting at `position`, when it is well-formed UTF-8.
    func scalar(at position: Int) -> Unicode.Scalar? {
        let lead = bytes[position]
        if lead < 0x80 { return Unicode.Scalar(lead) }
        guard let length = utf8Length(at: position) else { return nil }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for i in 1..<length {
            value = value << 6 | UInt32(bytes[position + i] & 0x3F)
        }
        return Unicode.Scalar(value)
    }

    /// The error for the ill-formed UTF-8 starting at the current position.
    func invalidUTF8Error() -> JSONSyntaxError {
        let lead = bytes[offset]
        var fixIt = "save the file as UTF-8"
        if offset == 0, bytes.count >= 2, (lead == 0xFF && bytes[1] == 0xFE) || (lead == 0xFE && bytes[1] == 0xFF) {
            fixIt = "the file looks UTF-16 encoded; save it as UTF-8"
        }
        let expectedLength: Int
        switch lead {
        case 0xC2...0xDF: expectedLength = 2
        case 0xE0...0xEF: expectedLength = 3
        case 0xF0...0xF4: expectedLength = 4
        default:
            return JSONSyntaxError("invalid UTF-8 byte \(Self.hex(lead))", at: location, fixIt: fixIt)
        }
        // Show the lead byte and the continuation bytes up to and including the first bad one.
        var shown = [lead]
        var i = offset + 1
        while i < bytes.count, shown.count < expectedLength {
            shown.append(bytes[i])
            let valid: ClosedRange<UInt8> =
                switch (lead, shown.count) {
                case (0xE0, 2): 0xA0...0xBF
                case (0xED, 2): 0x80...0x9F
                case (0xF0, 2): 0x90...0xBF
                case (0xF4, 2): 0x80...0x8F
                default: 0x80...0xBF
                }
            if !valid.contains(bytes[i]) { break }
            i += 1
        }
        let sequence = shown.map(Self.hex).joined(separator: " ")
        let truncated = i >= bytes.count && shown.count < expectedLength ? " (truncated at end of file)" : ""
        return JSONSyntaxError("invalid UTF-8 sequence \(sequence)\(truncated)", at: location, fixIt: fixIt)
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x\(digits[Int(byte >> 4)])\(digits[Int(byte & 0x0F)])"
    }

    static func scalarCode(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
