import Foundation
import LatchkeyTokens

extension AuthClient {
    /// Adopts the session another SDK stored (``AuthClientOptions/sessionImport``), when there is one that is
    /// provably this project's: it is decoded through the provider's `session` and `user` pointers, checked
    /// (``importedSessionBelongs(_:)``), written to this client's store bound to its identity, and only then
    /// removed from the other SDK's storage. No request is sent.
    ///
    /// Anything else (no import configured, nothing stored, an unreadable record, another project's session)
    /// is logged and reads as no session; the other SDK's item is then left as it is. A session that cannot be
    /// written to this client's store is used for now and its item kept, so the next launch tries again.
    /// - Returns: The adopted session, or `nil`.
    func importedSession() async -> Session? {
        guard let sessionImport = options.sessionImport else { return nil }
        let data: Data?
        do {
            data = try await sessionImport.source.load()
        } catch {
            log(.info, "The \(sessionImport.format.rawValue) session could not be read (\(error.message)).")
            return nil
        }
        guard let data else { return nil }
        let document: JSON?
        switch sessionImport.format {
        case .supabaseSwift: document = SupabaseSwiftSessionFormat.sessionDocument(from: data)
        }
        guard let document, let session = try? decoder.session(from: document, now: now(), serverDate: nil) else {
            log(.info, "The stored \(sessionImport.format.rawValue) session is unreadable; it is not used.")
            return nil
        }
        guard importedSessionBelongs(session) else {
            log(.info, "The stored \(sessionImport.format.rawValue) session is another project's; it is not used.")
            return nil
        }
        do throws(AuthError) {
            let record = try StoredRecords.encode(session, identity: identity)
            try await saveRecord(record, key: storeKey)
            lastSessionRecord = (record, session)
        } catch {
            log(.info, "The imported session could not be stored (\(error.message)); it is used for now.")
            return session
        }
        do throws(AuthError) {
            try await sessionImport.source.remove()
            log(.info, "The \(sessionImport.format.rawValue) session was adopted and its old copy removed.")
        } catch {
            log(.info, "The imported session's old copy could not be removed (\(error.message)).")
        }
        return session
    }

    /// Whether an imported session is this client's project's: its access token is a JWT whose `iss` is one of
    /// this client's URLs (GoTrue signs with `iss` = `{projectURL}/auth/v1`; see ``LegacySessionMigration``),
    /// and whose `sub` is the stored user's id. The signature cannot be checked here (GoTrue signs with the
    /// project's secret): the storage vouches for the record (the app's own Keychain item or file), and the
    /// server for the tokens on their first use.
    func importedSessionBelongs(_ session: Session) -> Bool {
        guard let claims = JWTPayload.claims(of: session.accessToken), let issuer = claims["iss"]?.string,
            LegacySessionMigration.acceptedIssuers(identity: identity, provider: provider, inputs: inputs)
                .contains(issuer)
        else { return false }
        guard let user = session.user else { return true }
        return claims["sub"]?.string == user.id
    }
}
