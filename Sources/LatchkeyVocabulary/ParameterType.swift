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
    /// A JSON object (format version 2), e.g. GoTrue's `data` (the new user's metadata): sent as a nested
    /// object in a JSON body.
    case object
    /// A list of strings (format version 2), e.g. an OAuth client's `redirect_uris`: sent as a JSON array in a
    /// JSON body.
    case strings
    /// A UUID (format version 2), e.g. GoTrue's user ids: the generated method takes a `Foundation.UUID`, sent
    /// as its `uuidString` (upper case, as supabase-swift's `"\(uid)"`).
    case uuid
}
