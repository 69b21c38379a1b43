/// A vendor SDK's own surface over the runtime (`vendorSDK`): the module, type names and state cases a vendor's
/// guide documents, so that its code compiles unchanged (`import BaseIdP`, `BaseIdPAuth(clientId:)`).
///
/// The generator emits it as one more file (`Generated/vendor/<module>.swift`), compiled into a library product
/// named ``module``: an auth object that restores on its own and signs in through a browser, a configuration read
/// from Info.plist, an error with a string `code`, a session with its principal, and a SwiftUI sign-in button.
public struct VendorSDK: Sendable, Hashable {
    /// The module and library product (`BaseIdP`).
    public var module: String
    /// The `@MainActor` observable auth object (`BaseIdPAuth`).
    public var authType: String
    /// The configuration (`BaseIdPConfig`, with `fromInfoPlist()`).
    public var configType: String
    /// The error, with `code` and `message` strings (`BaseIdPError`).
    public var errorType: String
    /// What a sign-in returns (`BaseIdPSession`, with `principal` and, for PASETO tokens, `serverHandoff()`).
    public var sessionType: String
    /// Who is signed in (`BaseIdPPrincipal`).
    public var principalType: String
    /// The SwiftUI button (`SignInWithBaseIdPButton`).
    public var signInButton: String
    /// The input the short initializer takes (`clientID`).
    public var primaryInput: String
    /// Its argument label (`clientId`).
    public var primaryInputLabel: String
    /// The case of the auth object's `State` each runtime state shows as, in the order of ``runtimeStates``.
    public var states: [Named<String>]
    /// Token claims the principal carries as non-optional strings (`gid`, `sub`); each is a required claim.
    public var principalClaims: [String]

    /// The runtime's states, in order: the keys of `states`.
    public static let runtimeStates = ["loading", "signedOut", "authenticating", "signedIn", "failed"]

    /// The state cases, each once, in the order of their first mapping.
    public var stateCases: [String] {
        var seen: [String] = []
        for state in states where !seen.contains(state.value) { seen.append(state.value) }
        return seen
    }

    /// The case a runtime state shows as.
    /// - Parameter runtimeState: One of ``runtimeStates``.
    public func stateCase(for runtimeState: String) -> String {
        states.first { $0.name == runtimeState }?.value ?? runtimeState
    }
}
