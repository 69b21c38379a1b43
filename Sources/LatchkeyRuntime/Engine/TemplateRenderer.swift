import LatchkeyTokens
import LatchkeyVocabulary

/// Fills ``JSONTemplate``s and ``ValueTemplate``s from a ``VariableScope``.
enum TemplateRenderer {
    /// Renders a JSON template.
    ///
    /// A string that is exactly one variable takes that variable's typed value, and is `nil` (left out)
    /// when the variable has none. Object members and array elements that are left out disappear, and an object
    /// whose members all disappear is left out too (GoTrue's `gotrue_meta_security` without a CAPTCHA token); an
    /// empty object written as `{}` is sent as written.
    /// - Throws: `invalid_configuration` when a string mixes text with a variable that has no value.
    static func render(_ template: JSONTemplate, in scope: VariableScope) throws(AuthError) -> JSON? {
        switch template {
        case .string(let value):
            if let name = value.soleVariable { return scope[name] }
            return .string(try text(value, in: scope))
        case .number(let lexeme):
            guard let number = Double(lexeme), number.isFinite else {
                throw AuthError(.invalidConfiguration, "The descriptor has an invalid number '\(lexeme)'.")
            }
            return .number(number)
        case .bool(let flag):
            return .bool(flag)
        case .null:
            return .null
        case .object(let members):
            var object: [String: JSON] = [:]
            for member in members {
                if let value = try render(member.value, in: scope) { object[member.name] = value }
            }
            return !members.isEmpty && object.isEmpty ? nil : .object(object)
        case .array(let elements):
            var array: [JSON] = []
            for element in elements {
                if let value = try render(element, in: scope) { array.append(value) }
            }
            return .array(array)
        }
    }

    /// Renders a value template to text.
    /// - Throws: `invalid_configuration` naming the first variable that has no value.
    static func text(_ template: ValueTemplate, in scope: VariableScope) throws(AuthError) -> String {
        if let rendered = template.render({ scope.text($0) }) { return rendered }
        let missing = template.variables.first { scope.text($0) == nil } ?? "?"
        throw AuthError(.invalidConfiguration, "The template '\(template)' needs '{\(missing)}', which has no value.")
    }

    /// Renders named parameters to text pairs, in order, leaving out absent ones.
    /// - Throws: `invalid_configuration` for an object or array where text is needed.
    static func pairs(_ parameters: [ParameterSpec], in scope: VariableScope) throws(AuthError) -> [(
        name: String, value: String
    )] {
        var out: [(name: String, value: String)] = []
        for parameter in parameters {
            guard let value = try render(parameter.value, in: scope), value != .null else { continue }
            guard let text = value.scalarText else {
                throw AuthError(
                    .invalidConfiguration, "The parameter '\(parameter.name)' must be text, a number or a boolean.")
            }
            out.append((parameter.name, text))
        }
        return out
    }
}
