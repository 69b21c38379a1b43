/// Where a provider puts the callback's parameters (`callback.location`).
public enum CallbackLocation: String, VocabularyTerm {
    /// In the query string.
    case query
    /// In the fragment.
    case fragment
    /// In either; a parameter present in both with different values is refused.
    case queryOrFragment = "query_or_fragment"
    /// POSTed to the redirect URI as an `application/x-www-form-urlencoded` body (OAuth 2.0 Form Post
    /// Response Mode). The loopback server and test browsers hand the runtime a callback URL whose query is
    /// that form body.
    case formPost = "form_post"
}
