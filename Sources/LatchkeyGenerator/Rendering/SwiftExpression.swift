import LatchkeyVocabulary

/// A Swift expression the generator builds, printed deterministically and readably.
indirect enum SwiftExpression: Sendable, Hashable {
    /// A call or initializer: `Name(label: value, ...)`.
    case call(String, [Argument])
    /// An array literal.
    case array([SwiftExpression])
    /// A dictionary literal with string keys, printed sorted by key.
    case dictionary([(key: String, value: SwiftExpression)])
    /// A string literal (escaped).
    case string(String)
    /// An integer literal.
    case int(Int)
    /// A numeric literal from a validated JSON number lexeme.
    case number(String)
    /// A boolean literal.
    case bool(Bool)
    /// A member or constant the generator itself names (never descriptor text), such as `.json`.
    case symbol(String)
    /// `nil`.
    case none

    struct Argument: Sendable, Hashable {
        var label: String?
        var value: SwiftExpression
    }

    /// The enum case generated code names for a vocabulary term, such as `.basicIfSecret`: the case's own
    /// Swift name, never descriptor text.
    /// - Parameter term: The term.
    /// - Returns: A member expression for it.
    static func term<Term: VocabularyTerm>(_ term: Term) -> SwiftExpression {
        .symbol("." + (VocabularySwiftCases.name(of: term) ?? term.swiftCase))
    }

    /// Two expressions are equal when their single-line texts are. Equal texts have equal widths, so the widths
    /// are compared first, and measuring stops as soon as one side outgrows the other: comparing a value with a
    /// small default (what ``RuntimeConstruct/call(_:)`` does for every argument) builds no text of the value.
    static func == (lhs: SwiftExpression, rhs: SwiftExpression) -> Bool {
        guard let width = lhs.flatWidth(within: .max), rhs.flatWidth(within: width) == width else { return false }
        return lhs.singleLine == rhs.singleLine
    }
    func hash(into hasher: inout Hasher) { hasher.combine(singleLine) }

    /// Width under which an expression stays on one line.
    static let lineWidth = 100

    var singleLine: String {
        switch self {
        case .call(let name, let arguments):
            return name + "("
                + arguments.map { ($0.label.map { "\($0): " } ?? "") + $0.value.singleLine }.joined(separator: ", ")
                + ")"
        case .array(let items): return "[" + items.map(\.singleLine).joined(separator: ", ") + "]"
        case .dictionary(let pairs):
            if pairs.isEmpty { return "[:]" }
            return "["
                + pairs.sorted { $0.key < $1.key }.map { SwiftLiteral.string($0.key) + ": " + $0.value.singleLine }
                .joined(separator: ", ") + "]"
        case .string(let text): return SwiftLiteral.string(text)
        case .int(let value): return String(value)
        case .number(let lexeme): return lexeme
        case .bool(let flag): return flag ? "true" : "false"
        case .symbol(let symbol): return symbol
        case .none: return "nil"
        }
    }

    /// The single-line form when it fits in `budget` characters; measuring it stops as soon as it does
    /// not, so printing a deep literal stays linear in its size.
    func flat(within budget: Int) -> String? {
        guard flatWidth(within: budget) != nil else { return nil }
        var out: [UInt8] = []
        appendFlat(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The UTF-8 length of ``singleLine``, or `nil` as soon as it exceeds `budget`. Measures without
    /// building any text, so a form that does not fit costs no string work.
    private func flatWidth(within budget: Int) -> Int? {
        var width = 0
        switch self {
        case .call(let name, let arguments):
            width = name.utf8.count + 2
            for (index, argument) in arguments.enumerated() {
                if index > 0 { width += 2 }
                if let label = argument.label { width += label.utf8.count + 2 }
                guard width <= budget, let inner = argument.value.flatWidth(within: budget - width) else { return nil }
                width += inner
            }
        case .array(let items):
            width = 2
            for (index, item) in items.enumerated() {
                if index > 0 { width += 2 }
                guard width <= budget, let inner = item.flatWidth(within: budget - width) else { return nil }
                width += inner
            }
        case .dictionary(let pairs):
            width = pairs.isEmpty ? 3 : 2
            for (index, pair) in pairs.enumerated() {
                if index > 0 { width += 2 }
                width += SwiftLiteral.stringWidth(pair.key) + 2
                guard width <= budget, let inner = pair.value.flatWidth(within: budget - width) else { return nil }
                width += inner
            }
        case .string(let text):
            width = SwiftLiteral.stringWidth(text)
        default:
            width = singleLine.utf8.count
        }
        return width <= budget ? width : nil
    }

    /// Appends ``singleLine`` to `out`.
    private func appendFlat(to out: inout [UInt8]) {
        switch self {
        case .call(let name, let arguments):
            out += name
            out += "("
            for (index, argument) in arguments.enumerated() {
                if index > 0 { out += ", " }
                if let label = argument.label {
                    out += label
                    out += ": "
                }
                argument.value.appendFlat(to: &out)
            }
            out += ")"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", " }
                item.appendFlat(to: &out)
            }
            out += "]"
        case .dictionary(let pairs):
            if pairs.isEmpty {
                out += "[:]"
            } else {
                out += "["
                for (index, pair) in pairs.sorted(by: { $0.key < $1.key }).enumerated() {
                    if index > 0 { out += ", " }
                    SwiftLiteral.appendString(pair.key, to: &out)
                    out += ": "
                    pair.value.appendFlat(to: &out)
                }
                out += "]"
            }
        case .string(let text):
            SwiftLiteral.appendString(text, to: &out)
        default:
            out += singleLine
        }
    }

    /// Runs of spaces for the usual indentations, made once.
    private static let indentations = (0...64).map { [UInt8](repeating: 0x20, count: $0) }

    private static func spaces(_ count: Int) -> [UInt8] {
        count < indentations.count ? indentations[count] : [UInt8](repeating: 0x20, count: count)
    }

    /// Prints the expression starting at the given indentation.
    ///
    /// The text is built as UTF-8 bytes and made a `String` once: appending to a byte array costs a fraction
    /// of appending to a `String`, and a spec literal takes thousands of appends.
    func printed(indent: Int) -> String {
        var out: [UInt8] = []
        appendPrinted(to: &out, indent: indent)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends ``printed(indent:)`` to `out`: the single-line form when it fits in ``lineWidth`` minus
    /// `indent`, else one argument, element or pair per line, each printed the same way.
    /// A collection of one element broken over lines has no trailing comma (what swift-format's
    /// `TrailingComma` rule asks for); longer ones end every element with one.
    func appendPrinted(to out: inout [UInt8], indent: Int) {
        if flatWidth(within: Self.lineWidth - indent) != nil {
            appendFlat(to: &out)
            return
        }
        let inner = Self.spaces(indent + 4)
        let closing = Self.spaces(indent)
        switch self {
        case .call(let name, let arguments):
            out += name
            out += "(\n"
            for (index, argument) in arguments.enumerated() {
                if index > 0 { out += ",\n" }
                out += inner
                if let label = argument.label {
                    out += label
                    out += ": "
                }
                argument.value.appendPrinted(to: &out, indent: indent + 4)
            }
            out += "\n"
            out += closing
            out += ")"
        case .array(let items):
            out += "[\n"
            for (index, item) in items.enumerated() {
                if index > 0 { out += "\n" }
                out += inner
                item.appendPrinted(to: &out, indent: indent + 4)
                if items.count > 1 { out += "," }
            }
            out += "\n"
            out += closing
            out += "]"
        case .dictionary(let pairs):
            out += "[\n"
            for (index, pair) in pairs.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out += "\n" }
                out += inner
                SwiftLiteral.appendString(pair.key, to: &out)
                out += ": "
                pair.value.appendPrinted(to: &out, indent: indent + 4)
                if pairs.count > 1 { out += "," }
            }
            out += "\n"
            out += closing
            out += "]"
        default:
            out += singleLine
        }
    }
}

extension [UInt8] {
    /// Appends the UTF-8 of `text`.
    fileprivate static func += (bytes: inout [UInt8], text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}
