/// A string with `{variable}` references, such as `{projectURL}/auth/v1`, parsed into segments.
///
/// Templates come from descriptors: the descriptor decoder parses and validates the syntax once
/// (``parse(_:)``), the generator emits the segments, and the runtime fills them from the configuration
/// inputs, the discovered metadata (`{discovered.token_endpoint}`) and the variables of the flow in progress
/// (`{code}`, `{code_verifier}`, `{redirect_uri}`, ...). In descriptor syntax `{{` and `}}` stand for literal
/// braces, and `{a ?? b}` takes the first of its alternatives that has a value.
public struct ValueTemplate: Sendable, Hashable, CustomStringConvertible {
    /// One piece of a template.
    public enum Segment: Sendable, Hashable {
        /// Text used as it is (braces included: it is never parsed again).
        case literal(String)
        /// The value of a variable: `{name}`.
        case variable(String)
        /// The value of the first alternative that has one: `{first ?? second}`.
        case firstOf([String])

        /// The variable names the segment refers to, in order (none for a literal).
        public var alternatives: [String] {
            switch self {
            case .literal: []
            case .variable(let name): [name]
            case .firstOf(let names): names
            }
        }
    }

    /// The pieces in order.
    public var segments: [Segment]

    /// Creates a template from its pieces.
    /// - Parameter segments: The pieces in order.
    public init(segments: [Segment]) {
        self.segments = segments
    }

    /// Creates a template that is one literal string (braces and all).
    /// - Parameter literal: The text.
    public init(literal: String) {
        self.segments = literal.isEmpty ? [] : [.literal(literal)]
    }

    /// Creates a template that is one variable.
    /// - Parameter name: The variable name.
    /// - Returns: The template `{name}`.
    public static func variable(_ name: String) -> ValueTemplate { ValueTemplate(segments: [.variable(name)]) }

    /// Creates a template that is one literal string (braces and all); the empty string has no segment.
    /// - Parameter text: The text.
    /// - Returns: The template.
    public static func literal(_ text: String) -> ValueTemplate { ValueTemplate(literal: text) }

    /// The names of the variables the template refers to, in order of first use (each alternative of a
    /// fallback such as `{discovered.device_authorization_endpoint ?? deviceEndpoint}` counts).
    public var variables: [String] {
        var seen: [String] = []
        for segment in segments {
            for name in segment.alternatives where !seen.contains(name) { seen.append(name) }
        }
        return seen
    }

    /// The alternatives of each reference, in order: `[name]` for `{name}`, `[a, b]` for `{a ?? b}`.
    public var references: [[String]] {
        segments.compactMap { segment in
            if case .literal = segment { return nil }
            return segment.alternatives
        }
    }

    /// When the template is exactly one variable (not a fallback), its name.
    public var soleVariable: String? {
        if segments.count == 1, case .variable(let name) = segments[0] { return name }
        return nil
    }

    /// The template in descriptor syntax (braces in literals doubled).
    public var description: String {
        var text = ""
        for segment in segments {
            switch segment {
            case .literal(let literal):
                for character in literal {
                    if character == "{" || character == "}" { text.append(character) }
                    text.append(character)
                }
            case .variable(let name): text += "{\(name)}"
            case .firstOf(let names): text += "{\(names.joined(separator: " \(Self.fallbackSeparator) "))}"
            }
        }
        return text
    }

    /// What separates the alternatives of a fallback reference in descriptor syntax.
    public static let fallbackSeparator = "??"

    /// Fills the template; a fallback reference takes its first alternative that has a value.
    /// - Parameter lookup: Returns a variable's value, or `nil` when it has none.
    /// - Returns: The text, or `nil` when a reference has no value.
    public func render(_ lookup: (String) -> String?) -> String? {
        var out = ""
        for segment in segments {
            switch segment {
            case .literal(let text): out += text
            case .variable(let name):
                guard let value = lookup(name) else { return nil }
                out += value
            case .firstOf(let names):
                guard let value = names.lazy.compactMap(lookup).first else { return nil }
                out += value
            }
        }
        return out
    }
}
