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

    static func == (lhs: SwiftExpression, rhs: SwiftExpression) -> Bool { lhs.singleLine == rhs.singleLine }
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

    /// The single-line form when it fits in `budget` characters; building it stops as soon as it does
    /// not, so printing a deep literal stays linear in its size.
    func flat(within budget: Int) -> String? {
        var out = ""
        return appendFlat(to: &out, budget: budget) ? out : nil
    }

    private func appendFlat(to out: inout String, budget: Int) -> Bool {
        switch self {
        case .call(let name, let arguments):
            out += name + "("
            for (index, argument) in arguments.enumerated() {
                if index > 0 { out += ", " }
                if let label = argument.label { out += label + ": " }
                guard out.utf8.count <= budget, argument.value.appendFlat(to: &out, budget: budget) else {
                    return false
                }
            }
            out += ")"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", " }
                guard out.utf8.count <= budget, item.appendFlat(to: &out, budget: budget) else { return false }
            }
            out += "]"
        case .dictionary(let pairs):
            if pairs.isEmpty {
                out += "[:]"
            } else {
                out += "["
                for (index, pair) in pairs.sorted(by: { $0.key < $1.key }).enumerated() {
                    if index > 0 { out += ", " }
                    out += SwiftLiteral.string(pair.key) + ": "
                    guard out.utf8.count <= budget, pair.value.appendFlat(to: &out, budget: budget) else {
                        return false
                    }
                }
                out += "]"
            }
        default:
            out += singleLine
        }
        return out.utf8.count <= budget
    }

    /// Prints the expression starting at the given indentation.
    func printed(indent: Int) -> String {
        if let flat = flat(within: Self.lineWidth - indent) { return flat }
        let inner = String(repeating: " ", count: indent + 4)
        let closing = String(repeating: " ", count: indent)
        switch self {
        case .call(let name, let arguments):
            let lines = arguments.map { argument in
                inner + (argument.label.map { "\($0): " } ?? "") + argument.value.printed(indent: indent + 4)
            }
            return name + "(\n" + lines.joined(separator: ",\n") + "\n" + closing + ")"
        case .array(let items):
            return "[\n" + items.map { inner + $0.printed(indent: indent + 4) + "," }.joined(separator: "\n") + "\n"
                + closing + "]"
        case .dictionary(let pairs):
            return "[\n"
                + pairs.sorted { $0.key < $1.key }.map {
                    inner + SwiftLiteral.string($0.key) + ": " + $0.value.printed(indent: indent + 4) + ","
                }.joined(separator: "\n") + "\n" + closing + "]"
        default:
            return singleLine
        }
    }
}
