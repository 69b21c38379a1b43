import LatchkeyVocabulary

/// A descriptor string with `{variable}` references (`{{` and `}}` are literal braces), parsed once into
/// segments: the vocabulary's `ValueTemplate`, which the generator emits and the runtime
/// fills as they are.
public typealias Template = ValueTemplate

/// A JSON value whose strings are templates: parameter values and request bodies.
public indirect enum Value: Sendable, Hashable {
    /// A templated string.
    case string(Template)
    /// A number, by its JSON lexeme.
    case number(String)
    /// A boolean.
    case bool(Bool)
    /// `null`.
    case null
    /// An object, members in order.
    case object([Named<Value>])
    /// An array.
    case array([Value])

    /// Every template in the value, depth first.
    public var templates: [Template] {
        switch self {
        case .string(let template): [template]
        case .number, .bool, .null: []
        case .object(let members): members.flatMap(\.value.templates)
        case .array(let items): items.flatMap(\.templates)
        }
    }
}
