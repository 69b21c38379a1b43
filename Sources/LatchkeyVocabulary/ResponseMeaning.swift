/// What a request's successful response means (a request's `response`).
public enum ResponseMeaning: String, VocabularyTerm {
    /// A token response: it becomes the new session.
    case session
    /// A user document: it becomes the session's user.
    case user
    /// A JSON document returned to the caller as it is.
    case document
    /// Nothing: any success status will do.
    case none
    /// Either a session or, when no access token is present, a user (sign-up awaiting confirmation).
    case sessionOrUser
    /// Either a session or, when no access token is present, the document as it is (GoTrue's `{"msg": …}` after
    /// the first confirmation of a secure email change: a success that signs nobody in).
    case sessionOrDocument

    /// Whether the response carries a session (and so may name its own session fields).
    public var carriesSession: Bool { self == .session || self == .sessionOrUser || self == .sessionOrDocument }
}
