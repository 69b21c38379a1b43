/// The type of an action parameter (a parameter's `type`).
public enum ParameterType: String, VocabularyTerm {
    /// Text.
    case string
    /// A boolean.
    case bool
    /// An integer.
    case int
    /// An absolute URL.
    case url
}
