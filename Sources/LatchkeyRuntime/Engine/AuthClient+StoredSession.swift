import Foundation
import LatchkeyTokens

extension AuthClient {
    /// Reads and decodes the stored session.
    ///
    /// Only a record bound to this client's ``identity`` is used. A record of another provider, issuer or
    /// client reads as no session (and is logged); so does a corrupt one. When ``storeKey`` holds nothing, an
    /// earlier version's unbound record under ``legacyStoreKey`` is adopted (rewritten bound, the old record
    /// removed) only when ``LegacySessionMigration`` proves it belongs to this client and its ID token's
    /// signature verifies against the provider's keys; otherwise it is left alone and never sent anywhere.
    /// - Parameter importing: Whether another SDK's session (``AuthClientOptions/sessionImport``) is adopted when
    ///   neither key holds a record (the first restore only, never a refresh's re-read).
    func readStoredSession(importing: Bool = false) async -> Result<Session?, AuthError> {
        do {
            if let data = try await loadRecord(key: storeKey) {
                if let last = lastSessionRecord, last.bytes == data { return .success(last.session) }
                let reading = StoredRecords.readSession(data, identity: identity)
                if case .bound(let session) = reading { lastSessionRecord = (data, session) }
                return .success(await adopt(reading, from: storeKey))
            }
            guard legacyStoreKey != storeKey, let data = try await loadRecord(key: legacyStoreKey) else {
                return .success(importing ? await importedSession() : nil)
            }
            guard case .legacy(let session) = StoredRecords.readSession(data, identity: identity) else {
                return .success(nil)
            }
            return .success(await adopt(.legacy(session), from: legacyStoreKey))
        } catch {
            log(.info, "The session store could not be read: \(error.message)")
            return .failure(error)
        }
    }

    /// The session a record reading yields for this client, migrating a legacy record it provably owns.
    private func adopt(_ reading: StoredRecords.SessionReading, from key: String) async -> Session? {
        switch reading {
        case .bound(let session):
            return session
        case .unreadable:
            log(.info, "The stored session record is corrupt or of an unknown version; treating it as signed out.")
            return nil
        case .otherBinding:
            log(.info, "The stored session belongs to another provider, issuer or client; it is not used.")
            return nil
        case .legacy(let session):
            guard LegacySessionMigration.belongs(session, to: identity, provider: provider, inputs: inputs) else {
                log(
                    .info, "A session stored by an earlier version cannot be shown to be this client's; it is not used."
                )
                return nil
            }
            guard await legacyIDTokenVerifies(session) else { return nil }
            do throws(AuthError) {
                try await saveRecord(StoredRecords.encode(session, identity: identity), key: storeKey)
                if key != storeKey { try await removeRecord(key: key) }
                log(.info, "A session stored by an earlier version was migrated to this client's record.")
            } catch {
                log(.info, "A migrated session could not be stored again (\(error.message)); it is used for now.")
            }
            return session
        }
    }

    /// Whether a legacy session's ID token is signed by this client's provider for this client: its signature
    /// verifies against the provider's JWKS with an accepted algorithm, and its `iss` and `aud` are this
    /// client's. A provider whose ID tokens Latchkey does not validate, a session without an ID token, an
    /// `alg: none` or otherwise unverifiable token, and a key set that cannot be fetched all fail the proof:
    /// claims alone, which anyone can write into a record, never make a session this client's.
    private func legacyIDTokenVerifies(_ session: Session) async -> Bool {
        guard provider.tokens.validatesIDToken, let idToken = session.idToken else {
            log(.info, "A session stored by an earlier version has no ID token Latchkey can verify; it is not used.")
            return false
        }
        do throws(AuthError) {
            _ = try await idTokenValidator().verifyIssuer(of: idToken, keys: jwks())
            return true
        } catch {
            log(.info, "A session stored by an earlier version failed verification (\(error.message)); it is not used.")
            return false
        }
    }
}
