/// A descriptor string with `{variable}` references (`{{` and `}}` are literal braces).
public struct Template: Sendable, Hashable, CustomStringConvertible {
    /// One piece of a template.
    public enum Part: Sendable, Hashable {
        /// Literal text.
        case literal(String)
        /// A variable reference.
        case variable(String)
    }

    /// The pieces in order, adjacent literals merged.
    public var parts: [Part]

    /// Creates a template from pieces.
    public init(parts: [Part]) {
        self.parts = parts
    }

    /// The variables referred to, in order of first use; each alternative of a fallback reference
    /// (`{discovered.device_authorization_endpoint ?? deviceEndpoint}`) counts.
    public var variables: [String] {
        var seen: [String] = []
        for case .variable(let name) in parts {
            for alternative in Template.alternatives(of: name) where !seen.contains(alternative) {
                seen.append(alternative)
            }
        }
        return seen
    }

    /// The names of a reference, in order: one for `{name}`, several for the fallback `{a ?? b}`, which
    /// takes the first that has a value at run time.
    public static func alternatives(of reference: String) -> [String] {
        guard reference.utf8.contains(UInt8(ascii: "?")) else { return [reference] }
        if reference.utf8.allSatisfy({ $0 < 0x80 }) { return asciiAlternatives(of: Array(reference.utf8)) }
        guard reference.contains("??") else { return [reference] }
        return reference.split(separator: "??", omittingEmptySubsequences: false).map { alternative in
            String(alternative.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// ``alternatives(of:)`` for ASCII text (where a byte is a Character): split at every `??`, spaces
    /// trimmed from both ends of each part.
    private static func asciiAlternatives(of bytes: [UInt8]) -> [String] {
        func trimmed(_ part: ArraySlice<UInt8>) -> String {
            var part = part
            while part.first == UInt8(ascii: " ") { part.removeFirst() }
            while part.last == UInt8(ascii: " ") { part.removeLast() }
            return String(decoding: part, as: UTF8.self)
        }
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
        return result
    }

    /// The literal text before the first variable.
    public var literalPrefix: String {
        if case .literal(let text)? = parts.first { return text }
        return ""
    }

    /// The template in descriptor syntax.
    public var description: String {
        // The common case, one literal without braces, is its own text.
        if parts.count == 1, case .literal(let text) = parts[0], !text.utf8.contains(where: Self.isBrace) {
            return text
        }
        return parts.map { part in
            switch part {
            case .literal(let text) where !text.utf8.contains(where: Self.isBrace):
                text
            case .literal(let text):
                String(text.flatMap { $0 == "{" ? ["{", "{"] : $0 == "}" ? ["}", "}"] : [$0] })
            case .variable(let name): "{\(name)}"
            }
        }.joined()
    }

    /// The problems that can make a template invalid.
    public enum ParseError: Error, Sendable, Hashable {
        /// A `{` with no closing `}`.
        case unclosed
        /// A `}` with no opening `{`.
        case unopened
        /// `{}` or a name with characters other than letters, digits, `_` and `.`.
        case invalidName(String)
    }

    /// Parses descriptor syntax.
    /// - Parameter text: The string from the descriptor.
    /// - Returns: The template.
    /// - Throws: ``ParseError`` when braces do not balance or a name is invalid.
    public static func parse(_ text: String) throws(ParseError) -> Template {
        // Without a brace, the whole text is one literal (what the loop below would build, faster).
        if !text.utf8.contains(where: isBrace) { return Template(parts: text.isEmpty ? [] : [.literal(text)]) }
        // ASCII text (every real URL): the same loop over bytes, where a byte is a Character.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return try parseASCII(Array(text.utf8)) }
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        func flush() {
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
        }
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "{" {
                if next < text.endIndex, text[next] == "{" {
                    literal.append("{")
                    index = text.index(after: next)
                    continue
                }
                guard let close = text[next...].firstIndex(of: "}") else { throw .unclosed }
                let name = String(text[next..<close])
                let alternatives = alternatives(of: name)
                guard alternatives.allSatisfy(isValidVariableName) else { throw .invalidName(name) }
                flush()
                parts.append(.variable(alternatives.joined(separator: " ?? ")))
                index = text.index(after: close)
            } else if character == "}" {
                guard next < text.endIndex, text[next] == "}" else { throw .unopened }
                literal.append("}")
                index = text.index(after: next)
            } else {
                literal.append(character)
                index = next
            }
        }
        flush()
        return Template(parts: parts)
    }

    static func isBrace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
    }

    /// ``parse(_:)`` for ASCII text, byte by byte.
    private static func parseASCII(_ bytes: [UInt8]) throws(ParseError) -> Template {
        var parts: [Part] = []
        var literal: [UInt8] = []
        func flush() {
            if !literal.isEmpty { parts.append(.literal(String(decoding: literal, as: UTF8.self))) }
            literal.removeAll(keepingCapacity: true)
        }
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
                let name = String(decoding: bytes[next..<close], as: UTF8.self)
                let alternatives = alternatives(of: name)
                guard alternatives.allSatisfy(isValidVariableName) else { throw .invalidName(name) }
                flush()
                parts.append(.variable(alternatives.count == 1 ? name : alternatives.joined(separator: " ?? ")))
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
        return Template(parts: parts)
    }

    /// Whether a string is a valid variable name: letters, digits and `_`, dot-separated segments.
    public static func isValidVariableName(_ name: String) -> Bool {
        // Byte by byte: any non-ASCII byte is invalid, and so is an empty segment or one starting with a digit.
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
}

extension Unicode.Scalar {
    var isASCIILetterOrUnderscore: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || self == "_"
    }
}

/// A JSON value whose strings are templates: parameter values and request bodies.
public indirect enum Value: Sendable, Hashable {
    /// A templated string.
    case string(Template)
    /// A number, by its JSON lexeme.
    case number(String)
    /// A boolean.
    case bool(Bool)
    /// `null`.
    case null
    /// An object, members in order.
    case object([Named<Value>])
    /// An array.
    case array([Value])

    /// Every template in the value, depth first.
    public var templates: [Template] {
        switch self {
        case .string(let template): [template]
        case .number, .bool, .null: []
        case .object(let members): members.flatMap(\.value.templates)
        case .array(let items): items.flatMap(\.templates)
        }
    }
}
