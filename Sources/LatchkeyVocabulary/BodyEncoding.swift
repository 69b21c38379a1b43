/// How a request's body is encoded (a request's `encoding`).
public enum BodyEncoding: String, VocabularyTerm {
    /// No body; parameters go in the query.
    case none
    /// `application/x-www-form-urlencoded`.
    case form
    /// `application/json`.
    case json
}
