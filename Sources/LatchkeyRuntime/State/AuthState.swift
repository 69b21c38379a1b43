import LatchkeyTokens

/// Where authentication stands, as an app shows it.
public enum AuthState: Sendable, Hashable, CustomStringConvertible {
    /// The stored session has not been read yet.
    case loading
    /// Nobody is signed in.
    case signedOut
    /// A sign-in is in progress.
    case authenticating
    /// Someone is signed in (a placeholder user with only the subject when the provider sent no user).
    case signedIn(User)
    /// The state could not be settled (a locked store, say); this is not "signed out".
    case failed(AuthError)

    /// The signed-in user, if any.
    public var user: User? {
        if case .signedIn(let user) = self { return user }
        return nil
    }

    /// Whether someone is signed in.
    public var isSignedIn: Bool { user != nil }

    /// A short summary without tokens.
    public var description: String {
        switch self {
        case .loading: "loading"
        case .signedOut: "signedOut"
        case .authenticating: "authenticating"
        case .signedIn(let user): "signedIn(\(user.id))"
        case .failed(let error): "failed(\(error.code.rawValue))"
        }
    }
}
