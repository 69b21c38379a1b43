/// A position in a source file: 1-based line and column (column counted in Unicode scalars).
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, counted in Unicode scalars from the start of the line.
    public var column: Int

    /// Creates a location.
    /// - Parameters:
    ///   - line: The 1-based line number.
    ///   - column: The 1-based column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The start of a file.
    public static let start = SourceLocation(line: 1, column: 1)

    /// `LINE:COLUMN`.
    public var description: String { "\(line):\(column)" }

    /// Orders locations by line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// One problem found in a descriptor, with where it is and how to fix it.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable {
        /// The input is invalid; nothing is generated.
        case error
        /// The input is accepted, but probably not what the author meant.
        case warning
        /// Extra information attached to another diagnostic.
        case note
    }

    /// How serious the problem is.
    public var severity: Severity
    /// What is wrong, in one sentence.
    public var message: String
    /// Where in the file the problem is.
    public var location: SourceLocation
    /// The JSON pointer (RFC 6901) of the value concerned, when there is one.
    public var pointer: String?
    /// How to fix it, when the diagnostic knows.
    public var fixIt: String?

    /// Creates a diagnostic.
    /// - Parameters:
    ///   - severity: How serious the problem is.
    ///   - message: What is wrong.
    ///   - location: Where it is.
    ///   - pointer: The JSON pointer of the value concerned.
    ///   - fixIt: How to fix it.
    public init(
        _ severity: Severity, _ message: String, at location: SourceLocation, pointer: String? = nil,
        fixIt: String? = nil
    ) {
        self.severity = severity
        self.message = message
        self.location = location
        self.pointer = pointer
        self.fixIt = fixIt
    }

    /// Creates an error diagnostic.
    public static func error(
        _ message: String, at location: SourceLocation, pointer: String? = nil, fixIt: String? = nil
    ) -> Diagnostic {
        Diagnostic(.error, message, at: location, pointer: pointer, fixIt: fixIt)
    }

    /// Creates a warning diagnostic.
    public static func warning(
        _ message: String, at location: SourceLocation, pointer: String? = nil, fixIt: String? = nil
    ) -> Diagnostic {
        Diagnostic(.warning, message, at: location, pointer: pointer, fixIt: fixIt)
    }

    /// The message with its pointer and fix, as shown after `FILE:LINE:COL: error: `.
    public var description: String {
        var text = message
        if let pointer { text += " (at \(pointer.isEmpty ? "the top level" : pointer))" }
        if let fixIt { text += "; \(fixIt)" }
        return text
    }

    /// The line a compiler would print: `FILE:LINE:COL: error: MESSAGE`.
    /// - Parameter file: The path shown for the file.
    /// - Returns: One line, without a trailing newline. Newlines in the message are folded to spaces.
    public func formatted(file: String) -> String {
        let flat = description.map { $0.isNewline ? " " : String($0) }.joined()
        return "\(file):\(location.line):\(location.column): \(severity.rawValue): \(flat)"
    }
}
