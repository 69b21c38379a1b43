/// Swift source that the generator itself produced (a rendered template or a literal it built).
///
/// Only this module can create one, so descriptor text can reach generated code only through an
/// escaping placeholder.
public struct GeneratedCode: Sendable, Hashable, CustomStringConvertible {
    /// The source text.
    public let text: String

    init(_ text: String) {
        self.text = text
    }

    /// The source text.
    public var description: String { text }
}

/// A value a template can show.
public indirect enum TemplateValue: Sendable, Hashable {
    /// Text from a descriptor: shown only through an escaping.
    case text(String)
    /// Code the generator produced.
    case code(GeneratedCode)
    /// A whole number.
    case int(Int)
    /// A flag for `{{#if}}`.
    case bool(Bool)
    /// A list for `{{#each}}`.
    case list([TemplateContext])
    /// A nested context.
    case context(TemplateContext)

    var isTruthy: Bool {
        switch self {
        case .text(let text): !text.isEmpty
        case .code(let code): !code.text.isEmpty
        case .int(let int): int != 0
        case .bool(let flag): flag
        case .list(let items): !items.isEmpty
        case .context: true
        }
    }
}

/// The names a template can look up.
public struct TemplateContext: Sendable, Hashable {
    /// The values by name.
    public var values: [String: TemplateValue]

    /// Creates a context.
    public init(_ values: [String: TemplateValue] = [:]) {
        self.values = values
    }

    /// Reads or writes a value.
    public subscript(name: String) -> TemplateValue? {
        get { values[name] }
        set { values[name] = newValue }
    }
}
