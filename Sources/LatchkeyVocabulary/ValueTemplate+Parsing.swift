extension ValueTemplate {
    /// The problems that can make a template's descriptor syntax invalid.
    public enum ParseError: Error, Sendable, Hashable {
        /// A `{` with no closing `}`.
        case unclosed
        /// A `}` with no opening `{`.
        case unopened
        /// `{}` or a name with characters other than letters, digits, `_` and `.`.
        case invalidName(String)
    }

    /// Parses descriptor syntax: `{name}` is a variable, `{a ?? b}` a fallback, `{{` and `}}` are braces.
    ///
    /// Adjacent literal text is one segment, and a template without braces is one literal (none when empty).
    /// - Parameter text: The string from the descriptor.
    /// - Returns: The template.
    /// - Throws: ``ParseError`` when braces do not balance or a name is invalid.
    public static func parse(_ text: String) throws(ParseError) -> ValueTemplate {
        // Without a brace, the whole text is one literal (what the loop below would build, faster).
        if !text.utf8.contains(where: isBrace) { return ValueTemplate(literal: text) }
        var segments: [Segment] = []
        var literal: [UInt8] = []
        func flush() {
            if !literal.isEmpty { segments.append(.literal(String(decoding: literal, as: UTF8.self))) }
            literal.removeAll(keepingCapacity: true)
        }
        // Byte by byte: braces are ASCII, so they never occur inside a multi-byte character.
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1
            if byte == UInt8(ascii: "{") {
                if next < bytes.count, bytes[next] == UInt8(ascii: "{") {
                    literal.append(byte)
                    index = next + 1
                    continue
                }
                guard let close = bytes[next...].firstIndex(of: UInt8(ascii: "}")) else { throw .unclosed }
                let reference = String(decoding: bytes[next..<close], as: UTF8.self)
                let names = alternatives(of: reference)
                guard names.allSatisfy(isValidVariableName) else { throw .invalidName(reference) }
                flush()
                segments.append(names.count == 1 ? .variable(names[0]) : .firstOf(names))
                index = close + 1
            } else if byte == UInt8(ascii: "}") {
                guard next < bytes.count, bytes[next] == UInt8(ascii: "}") else { throw .unopened }
                literal.append(byte)
                index = next + 1
            } else {
                literal.append(byte)
                index = next
            }
        }
        flush()
        return ValueTemplate(segments: segments)
    }

    /// The names of a reference (the text between the braces), in order: one for `name`, several for the
    /// fallback `a ?? b`, each trimmed of spaces.
    /// - Parameter reference: The text between the braces.
    /// - Returns: The names, not yet validated.
    public static func alternatives(of reference: String) -> [String] {
        let bytes = Array(reference.utf8)
        func trimmed(_ part: ArraySlice<UInt8>) -> String {
            var part = part
            while part.first == UInt8(ascii: " ") { part.removeFirst() }
            while part.last == UInt8(ascii: " ") { part.removeLast() }
            return String(decoding: part, as: UTF8.self)
        }
        guard bytes.contains(UInt8(ascii: "?")) else { return [reference] }
        var result: [String] = []
        var start = 0
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "?"), bytes[index + 1] == UInt8(ascii: "?") {
                result.append(trimmed(bytes[start..<index]))
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        result.append(trimmed(bytes[start...]))
        return result.count == 1 ? [reference] : result
    }

    /// Whether a string is a valid variable name: letters, digits and `_`, in dot-separated segments that do
    /// not start with a digit.
    /// - Parameter name: The candidate name.
    /// - Returns: `true` when the name is valid.
    public static func isValidVariableName(_ name: String) -> Bool {
        var atSegmentStart = true
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "."):
                if atSegmentStart { return false }
                atSegmentStart = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
                atSegmentStart = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if atSegmentStart { return false }
            default:
                return false
            }
        }
        return !atSegmentStart
    }

    static func isBrace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
    }
}

extension ValueTemplate: ExpressibleByStringLiteral {
    /// Creates a template from descriptor syntax, for specs written by hand (tests, previews).
    ///
    /// Generated code never uses this: the generator emits the parsed ``segments``. Text that is not valid
    /// descriptor syntax (an unbalanced brace, an invalid name) is kept whole as one literal.
    /// - Parameter syntax: The template in descriptor syntax.
    public init(_ syntax: String) {
        self = (try? Self.parse(syntax)) ?? ValueTemplate(literal: syntax)
    }

    /// Creates a template from a string literal in descriptor syntax (see ``init(_:)``).
    /// - Parameter value: The template in descriptor syntax.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
