import LatchkeyTokens

extension AuthClient {
    /// Forgets the session on this device without any request: no refresh, no revocation, no sign-out request.
    ///
    /// The session is removed from memory and from the store, the state becomes `signedOut` and
    /// ``observeTokens()`` yields `nil`. A refresh or sign-in whose request is already on the wire is fenced:
    /// its result is discarded when it arrives, never stored or published. The provider still considers the
    /// tokens valid until they expire; use ``signOut(scope:)`` to end the session there as well (it may refresh
    /// an expired token first, then sends the descriptor's sign-out request). Use this when the session must go
    /// without touching the network: a user switch, a "forget this device" setting, or a provider that is
    /// unreachable.
    /// - Throws: `store_failed` when the stored record could not be removed (the session is gone from memory
    ///   all the same, and nothing of it is sent anywhere).
    public func resetTokens() async throws(AuthError) {
        if let storeError = await clearSession() { throw storeError }
    }
}
