extension AuthClient {
    /// A stream of the session's tokens: the current session first, then every change — a sign-in, every
    /// refresh (automatic, forced, or adopted from another process sharing the store), and `nil` at a sign-out,
    /// ``resetTokens()`` or a session the provider ended.
    ///
    /// ``stateUpdates()`` yields only when the ``AuthState`` changes, and a refresh keeps the state
    /// `signedIn(user)`; this stream yields the new ``Session`` for each refresh. Nothing is yielded before the
    /// stored session was read (call ``restore()``): `nil` always means "nobody is signed in", never "not
    /// known yet".
    ///
    /// A subscriber that reads slowly gets only the latest value, never an older one after it: once `nil` was
    /// published for a sign-out, a refresh that was in flight yields nothing (its result is discarded).
    ///
    /// - Important: The values are secrets. ``Session`` redacts its tokens in `description` and dumps, but an
    ///   app must not log, persist or send ``Session/accessToken``, ``Session/refreshToken`` or
    ///   ``Session/idToken`` anywhere but to their own provider and APIs.
    /// - Returns: A stream that ends when the subscriber stops iterating or the client goes away.
    public nonisolated func observeTokens() -> AsyncStream<Session?> {
        tokenBroadcaster.updates()
    }
}
