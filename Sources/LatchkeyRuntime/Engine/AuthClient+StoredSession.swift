import Foundation

extension AuthClient {
    /// Reads and decodes the stored session.
    ///
    /// Only a record bound to this client's ``identity`` is used. A record of another provider, issuer or
    /// client reads as no session (and is logged); so does a corrupt one. When ``storeKey`` holds nothing, an
    /// earlier version's unbound record under ``legacyStoreKey`` is adopted (rewritten bound, the old record
    /// removed) only when ``LegacySessionMigration`` proves it belongs to this client; otherwise it is left
    /// alone and never sent anywhere.
    func readStoredSession() async -> Result<Session?, AuthError> {
        do {
            if let data = try await loadRecord(key: storeKey) {
                if let last = lastSessionRecord, last.bytes == data { return .success(last.session) }
                let reading = StoredRecords.readSession(data, identity: identity)
                if case .bound(let session) = reading { lastSessionRecord = (data, session) }
                return .success(await adopt(reading, from: storeKey))
            }
            guard legacyStoreKey != storeKey, let data = try await loadRecord(key: legacyStoreKey) else {
                return .success(nil)
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
}
