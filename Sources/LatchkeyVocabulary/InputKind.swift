/// The type of a configuration input (an input's `type`).
public enum InputKind: String, VocabularyTerm {
    /// Free text.
    case string
    /// An absolute URL (https, or http on a loopback host).
    case url
}
