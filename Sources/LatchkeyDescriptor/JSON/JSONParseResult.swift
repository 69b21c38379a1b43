/// What ``JSONParser`` produced: the tree, when there was no syntax error, and every problem found.
public struct JSONParseResult: Sendable {
    /// The root value; nil when a syntax error prevented building the tree.
    public var root: JSONNode?
    /// The errors found, in source order: duplicate keys, then at most one syntax error.
    public var diagnostics: [Diagnostic]

    /// Creates a result.
    public init(root: JSONNode?, diagnostics: [Diagnostic]) {
        self.root = root
        self.diagnostics = diagnostics
    }

    /// Whether any error was found (duplicate keys included).
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}
