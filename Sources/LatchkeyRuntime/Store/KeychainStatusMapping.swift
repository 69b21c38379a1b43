import LatchkeyTokens

/// Turns a keychain status into the store's error: the platform-neutral mapping behind
/// `KeychainSessionStore`.
///
/// A locked keychain and a missing entitlement read as `store_unavailable`, never as "no session"; writes
/// fail with `store_failed`. Every message names the status, never an item's data.
package enum KeychainStatusMapping {
    /// What was being done when the status came back.
    package enum Operation: String, Sendable {
        case read, write, delete, lock
    }

    /// The error for a status that is not a success (nor "not found" where that is an answer).
    /// - Parameters:
    ///   - status: The `OSStatus`.
    ///   - operation: What failed.
    /// - Returns: `store_unavailable` for reads and the refresh lock, `store_failed` for writes and deletes.
    package static func error(_ status: Int32, during operation: Operation) -> AuthError {
        let code: AuthError.Code =
            switch operation {
            case .read, .lock: .storeUnavailable
            case .write, .delete: .storeFailed
            }
        switch status {
        case KeychainStatus.interactionNotAllowed:
            return AuthError(
                code,
                "The keychain is locked (status \(status)): the device has not been unlocked since it started, or "
                    + "the app was prewarmed. This is not signed out; try again after the first unlock.")
        case KeychainStatus.missingEntitlement:
            return AuthError(
                code,
                "The process has no keychain entitlement (status \(status)): sign the app with a keychain access "
                    + "group (and the access group you pass), or use FileSessionStore in a command-line tool "
                    + "such as `swift run`.")
        default:
            return AuthError(code, "Keychain \(operation.rawValue) failed with status \(status).")
        }
    }
}
