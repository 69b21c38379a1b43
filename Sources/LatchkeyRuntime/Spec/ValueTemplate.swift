import Foundation

/// A string with `{variable}` references, such as `{projectURL}/auth/v1`.
///
/// Templates come from descriptors. The runtime fills them from the configuration inputs, the
/// discovered metadata (`{discovered.token_endpoint}`) and the variables of the flow in progress
/// (`{code}`, `{code_verifier}`, `{redirect_uri}`, ...). `{{` and `}}` stand for literal braces.
@_spi(Generated) public struct ValueTemplate: Sendable, Hashable, CustomStringConvertible {
    /// One piece of a template.
    public enum Part: Sendable, Hashable {
        /// Text used as it is.
        case literal(String)
        /// The value of a variable.
        case variable(String)
    }

    /// The pieces in order.
    public var parts: [Part]

    /// Creates a template from its pieces.
    /// - Parameter parts: The pieces in order.
    public init(parts: [Part]) {
        self.parts = parts
    }

    /// Creates a template that is one literal string.
    /// - Parameter literal: The text.
    public init(literal: String) {
        self.parts = literal.isEmpty ? [] : [.literal(literal)]
    }

    /// Creates a template that is one variable.
    /// - Parameter variable: The variable name.
    public static func variable(_ name: String) -> ValueTemplate { ValueTemplate(parts: [.variable(name)]) }

    /// The names of the variables the template refers to, in order of first use (each alternative of a
    /// fallback such as `{discovered.device_authorization_endpoint ?? deviceEndpoint}` counts).
    public var variables: [String] {
        var seen: [String] = []
        for case .variable(let name) in parts {
            for alternative in Self.alternatives(of: name) where !seen.contains(alternative) {
                seen.append(alternative)
            }
        }
        return seen
    }

    /// When the template is exactly one variable (not a fallback), its name.
    public var soleVariable: String? {
        if parts.count == 1, case .variable(let name) = parts[0], !name.contains(Self.fallbackSeparator) { return name }
        return nil
    }

    /// What separates the alternatives of a fallback reference: `{first ?? second}` takes the first one
    /// that has a value.
    public static let fallbackSeparator = "??"

    /// The variable names of a reference, in order: one for `{name}`, several for `{a ?? b}`.
    /// - Parameter reference: The text between the braces.
    /// - Returns: The names, trimmed.
    public static func alternatives(of reference: String) -> [String] {
        guard reference.contains(fallbackSeparator) else { return [reference] }
        return reference.components(separatedBy: fallbackSeparator).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    }

    /// The template in descriptor syntax.
    public var description: String {
        parts.map { part in
            switch part {
            case .literal(let text):
                text.replacingOccurrences(of: "{", with: "{{").replacingOccurrences(of: "}", with: "}}")
            case .variable(let name): "{\(name)}"
            }
        }.joined()
    }

    /// Fills the template; a fallback reference takes its first alternative that has a value.
    /// - Parameter lookup: Returns a variable's value, or `nil` when it has none.
    /// - Returns: The text, or `nil` when a variable has no value.
    public func render(_ lookup: (String) -> String?) -> String? {
        var out = ""
        for part in parts {
            switch part {
            case .literal(let text): out += text
            case .variable(let name):
                guard let value = Self.alternatives(of: name).lazy.compactMap(lookup).first else { return nil }
                out += value
            }
        }
        return out
    }
}

/// A JSON value whose strings are ``ValueTemplate``s: request bodies and parameters.
///
/// When a string is exactly one variable and that variable has no value (an optional parameter
/// left out), the member or parameter is omitted from the request.
@_spi(Generated) public indirect enum JSONTemplate: Sendable, Hashable {
    /// A string, filled from variables.
    case string(ValueTemplate)
    /// A number, by its JSON lexeme.
    case number(String)
    /// A boolean.
    case bool(Bool)
    /// JSON `null`.
    case null
    /// An object, members in order.
    case object([Member])
    /// An array.
    case array([JSONTemplate])

    /// One member of an object template.
    public struct Member: Sendable, Hashable {
        /// The member name.
        public var name: String
        /// The member value.
        public var value: JSONTemplate

        /// Creates a member.
        /// - Parameters:
        ///   - name: The member name.
        ///   - value: The member value.
        public init(_ name: String, _ value: JSONTemplate) {
            self.name = name
            self.value = value
        }
    }
}

/// A named parameter (query, form field or header) with a templated value.
@_spi(Generated) public struct ParameterSpec: Sendable, Hashable {
    /// The parameter name as sent.
    public var name: String
    /// The value. A string that is exactly one absent variable omits the parameter.
    public var value: JSONTemplate

    /// Creates a parameter.
    /// - Parameters:
    ///   - name: The name as sent.
    ///   - value: The templated value.
    public init(_ name: String, _ value: JSONTemplate) {
        self.name = name
        self.value = value
    }
}

extension ValueTemplate: ExpressibleByStringLiteral {
    /// Creates a template from descriptor syntax: `{name}` is a variable, `{{` and `}}` are braces.
    ///
    /// Generated code uses this form because it reads like the descriptor. The generator has
    /// validated the syntax; here an unbalanced brace is kept as literal text.
    /// - Parameter syntax: The template in descriptor syntax.
    public init(_ syntax: String) {
        var parts: [Part] = []
        var literal = ""
        var scalars = Substring(syntax)
        while let first = scalars.first {
            scalars = scalars.dropFirst()
            if first == "{", scalars.first == "{" {
                literal.append("{")
                scalars = scalars.dropFirst()
            } else if first == "}", scalars.first == "}" {
                literal.append("}")
                scalars = scalars.dropFirst()
            } else if first == "{", let close = scalars.firstIndex(of: "}") {
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                let reference = String(scalars[..<close])
                parts.append(.variable(Self.alternatives(of: reference).joined(separator: " ?? ")))
                scalars = scalars[scalars.index(after: close)...]
            } else {
                literal.append(first)
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// Creates a template from a string literal in descriptor syntax.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
