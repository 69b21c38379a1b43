/// Where a generated client may run, as a descriptor's top-level `audience` declares it.
public enum ClientAudience: String, VocabularyTerm {
    /// Inside apps on every platform (the default): the client must never hold a secret.
    case app
    /// Only in server-side code: the client holds a secret (an admin key, say), so its initializers are
    /// unavailable on iOS, tvOS, watchOS and visionOS (and Mac Catalyst), and it has no sign-in flows.
    case server
}
