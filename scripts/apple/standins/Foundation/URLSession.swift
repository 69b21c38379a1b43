// Stand-in for Foundation's URL loading system: only the declarations Latchkey's Apple-only branches name
// (its transport is shared code, compiled and tested on Linux with FoundationNetworking).

/// An object that coordinates a group of related, network data transfer tasks.
open class URLSession: NSObject, @unchecked Sendable {
    /// Constants passed by session or task delegates to the provided continuation block in response to an
    /// authentication challenge.
    public enum AuthChallengeDisposition: Int, Sendable {
        case useCredential = 0
        case performDefaultHandling = 1
        case cancelAuthenticationChallenge = 2
        case rejectProtectionSpace = 3
    }
}

/// A task, like downloading a specific resource, performed in a URL session.
open class URLSessionTask: NSObject, @unchecked Sendable {}

/// A challenge from a server requiring authentication from the client.
open class URLAuthenticationChallenge: NSObject, @unchecked Sendable {}

/// An authentication credential consisting of information specific to the type of credential and the type of
/// persistent storage to use, if any.
open class URLCredential: NSObject, @unchecked Sendable {}
