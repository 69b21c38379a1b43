import LatchkeyTokens

/// The variables a template can refer to: inputs, derived variables, discovered metadata
/// (`discovered.NAME`) and the variables of the flow in progress.
///
/// Flow variables are typed (an action's `Bool` stays a JSON boolean in a JSON body); everything is
/// text in URLs, forms and headers.
struct VariableScope: Sendable {
    private(set) var values: [String: JSON]

    /// Creates a scope from inputs and discovered metadata, then evaluates the derived variables in
    /// order (a derived variable whose references are missing is left out).
    init(inputs: [String: String], discovered: [String: String], derived: [ParameterSpec]) {
        var values: [String: JSON] = inputs.mapValues(JSON.string)
        for (name, value) in discovered { values["discovered." + name] = .string(value) }
        self.values = values
        for variable in derived {
            if let value = try? TemplateRenderer.render(variable.value, in: self) {
                self.values[variable.name] = value
            }
        }
    }

    /// The value of a variable.
    subscript(name: String) -> JSON? { values[name] }

    /// The text of a variable, for URLs, forms and headers.
    func text(_ name: String) -> String? { values[name]?.scalarText }

    /// A copy with more variables; `nil` values leave a variable out.
    func adding(_ more: [String: JSON?]) -> VariableScope {
        var copy = self
        for (name, value) in more {
            if let value { copy.values[name] = value }
        }
        return copy
    }

    /// A copy with more text variables; `nil` values leave a variable out.
    func adding(text more: [String: String?]) -> VariableScope {
        adding(more.mapValues { $0.map(JSON.string) })
    }
}
