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
        guard reference.contains("??") else { return [reference] }
        return reference.split(separator: "??", omittingEmptySubsequences: false).map { alternative in
            String(alternative.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// The literal text before the first variable.
    public var literalPrefix: String {
        if case .literal(let text)? = parts.first { return text }
        return ""
    }

    /// The template in descriptor syntax.
    public var description: String {
        parts.map { part in
            switch part {
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

    /// Whether a string is a valid variable name: letters, digits and `_`, dot-separated segments.
    public static func isValidVariableName(_ name: String) -> Bool {
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        return !segments.isEmpty
            && segments.allSatisfy { segment in
                guard let first = segment.unicodeScalars.first, first.isASCIILetterOrUnderscore else { return false }
                return segment.unicodeScalars.allSatisfy { $0.isASCIILetterOrUnderscore || ("0"..."9").contains($0) }
            }
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
