import LatchkeyTokens
import LatchkeyVocabulary

/// How a callback URL reached the client, which decides what it may carry.
enum CallbackArrival: Sendable, Equatable {
    /// The app was opened with it, or a web authenticator returned it: a session link in the fragment may be
    /// accepted on a redirect URI the descriptor's `callback.implicit` names.
    case opened
    /// The loopback redirect server received it. Any local program can send one, and a browser never sends a
    /// fragment, so it carries the authorization response's parameters only: it is never a session link. For a
    /// provider that echoes no `state` it is only a candidate: a code the token endpoint refuses (or an error,
    /// which nothing proves) leaves the sign-in waiting for the real callback.
    case loopback
}

/// What handling one callback came to.
enum CallbackOutcome: Sendable {
    /// The session it signed in with.
    case session(Session)
    /// Nothing proves the callback came from the provider, and it did not sign in (a stateless provider's error
    /// callback, or a loopback code its token endpoint refused): the pending sign-in is left as it was.
    case unproven(AuthError)

    /// Whether the token endpoint's error means it refused the code or its verifier (a code from another sign-in,
    /// or made up), as opposed to a failure that says nothing about the callback (the network, the server).
    static func refusesCode(_ error: AuthError) -> Bool {
        let refusals: [BuiltInErrorCode] = [.invalidGrant, .badCodeVerifier, .flowStateNotFound, .flowStateExpired]
        return refusals.contains { $0.rawValue == error.code.rawValue }
    }
}
