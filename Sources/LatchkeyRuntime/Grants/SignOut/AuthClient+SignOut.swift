import LatchkeyTokens

extension AuthClient {
    /// Signs out: forgets the session locally first (store included) and publishes `signedOut`, then,
    /// when the descriptor has a sign-out request, ends the session at the provider.
    ///
    /// The request uses the access token the session had (refreshed first when expired, before the local
    /// session is forgotten). Its failure is logged and does not keep anyone signed in. Refresh results that arrive afterwards are discarded. To forget the session
    /// without any request at all, use ``resetTokens()``.
    /// A scope the descriptor lists in `keepSessionScopes` (such as `others`) ends the user's other
    /// sessions only: this one stays signed in, and a failure of that request is thrown.
    /// - Parameter scope: The sign-out scope (`local`, `global`, ...) when the provider has scopes.
    /// - Throws: `validation_failed` for a scope the provider does not know; `store_failed` when the
    ///   stored session could not be removed (the session is gone from memory all the same).
    public func signOut(scope: String? = nil) async throws(AuthError) {
        let flow = provider.flows.signOut
        if let scope, !(flow?.scopes.contains(scope) ?? false) {
            throw failure(.validationFailed, "Unknown sign-out scope '\(scope)'.")
        }
        try? await ensureLoaded()
        if let scope, flow?.keepsSessionScopes.contains(scope) ?? false {
            try await endOtherSessions(scope: scope)
            return
        }
        var current = session
        if let expiring = current, expiring.isExpired(at: now()), flow?.request != nil {
            current = (try? await currentSession()) ?? session
        }
        let storeError = await clearSession()
        if let flow, let current, let revocation = RevocationGrant(flow: flow, session: current, scope: scope) {
            do {
                _ = try await send(revocation.request, proofKey: revocation.proofKey)
            } catch {
                log(.info, "The sign-out request failed (\(error.code.rawValue)); signed out locally.")
            }
        }
        if let storeError { throw storeError }
    }

    /// Ends the user's other sessions at the provider and keeps this one (a scope such as `others`).
    private func endOtherSessions(scope: String) async throws(AuthError) {
        guard let flow = provider.flows.signOut, flow.request != nil else { return }
        let current = try await currentSession()
        guard let revocation = RevocationGrant(flow: flow, session: current, scope: scope) else { return }
        _ = try await send(revocation.request, proofKey: revocation.proofKey)
    }
}
