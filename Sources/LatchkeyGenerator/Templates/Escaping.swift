/// The ways a placeholder can show a value. Every placeholder must name one.
public enum Escaping: String, Sendable, CaseIterable {
    /// A Swift identifier: invalid characters replaced, keywords in backticks.
    case identifier
    /// A Swift string literal, quotes included, every special character escaped.
    case string
    /// Text inside a `///` or `//` comment: line breaks continue the comment with the same prefix.
    case doc
    /// An absolute https (or loopback http) URL, as a Swift string literal.
    case url
    /// Code the generator produced; descriptor text is refused.
    case code
    /// A whole number.
    case int

    /// Shows a value.
    /// - Parameters:
    ///   - value: The value.
    ///   - linePrefix: The text of the line before the placeholder (for `doc`).
    ///   - placeholder: The placeholder's description for messages, built only when one is thrown.
    /// - Returns: The text to insert.
    /// - Throws: ``TemplateError`` when the value does not fit the escaping.
    func apply(_ value: TemplateValue, linePrefix: Substring, placeholder: @autoclosure () -> String)
        throws(TemplateError) -> String
    {
        switch (self, value) {
        case (.identifier, .text(let text)):
            guard !text.isEmpty else { throw .render("\(placeholder()): an empty identifier") }
            return SwiftLiteral.identifier(text)
        case (.string, .text(let text)):
            return SwiftLiteral.string(text)
        case (.doc, .text(let text)):
            return SwiftLiteral.commentText(text, continuation: Self.commentContinuation(linePrefix))
        case (.url, .text(let text)):
            guard SwiftLiteral.isSafeURL(text) else {
                throw .render("\(placeholder()): \"\(text.prefix(60))\" is not an absolute https URL")
            }
            return SwiftLiteral.string(text)
        case (.code, .code(let code)):
            return code.text
        case (.int, .int(let int)):
            return String(int)
        case (.code, .text):
            throw .render("\(placeholder()): descriptor text cannot be inserted as code; use an escaping")
        default:
            throw .render("\(placeholder()): a \(value.kindName) value cannot be shown with \"\(rawValue)\"")
        }
    }
}

extension TemplateValue {
    var kindName: String {
        switch self {
        case .text: "text"
        case .code: "code"
        case .int: "number"
        case .bool: "flag"
        case .list: "list"
        case .context: "object"
        }
    }
}

extension Escaping {
    /// The start of a comment line equal to the one the placeholder is on (`    /// `).
    static func commentContinuation(_ linePrefix: Substring) -> String {
        guard let marker = linePrefix.firstRange(ofDoubled: UInt8(ascii: "/")) else {
            return String(linePrefix.prefix { $0 == " " }) + "/// "
        }
        let slashes = linePrefix[marker.lowerBound...].prefix { $0 == "/" }
        return String(linePrefix[..<slashes.endIndex]) + " "
    }
}

/// A template that cannot be parsed or rendered.
public enum TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The template text is malformed.
    case syntax(template: String, line: Int, message: String)
    /// A value is missing or does not fit its placeholder.
    case render(String)

    /// The message, with the template and line when known.
    public var description: String {
        switch self {
        case .syntax(let template, let line, let message): "\(template):\(line): error: \(message)"
        case .render(let message): "template error: \(message)"
        }
    }

    /// The error with the include it happened under (`(included from Client.swift.template:268)`).
    func included(from file: String, line: Int) -> TemplateError {
        switch self {
        case .syntax: self
        case .render(let message): .render("\(message) (included from \(file):\(line))")
        }
    }
}
