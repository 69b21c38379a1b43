import Foundation
import LatchkeyTokens

extension AuthClient {
    /// The store key of pending browser sign-ins.
    nonisolated var pendingKey: String { storeKey + ".pending" }

    /// How long a pending sign-in may wait for its callback.
    nonisolated var pendingLifetime: Double { provider.flows.authorizationCode?.pendingLifetime ?? 600 }

    /// The most pending sign-ins kept; the oldest go first.
    static var maximumPendingFlows: Int { 8 }

    /// Reads, changes and writes the pending sign-ins as one store operation (stale ones are dropped).
    /// - Parameter change: Edits the list and returns a value.
    /// - Returns: The value `change` returned.
    func updatePending<T: Sendable>(
        _ change: @escaping @Sendable (inout [PendingFlow]) throws(AuthError) -> T
    ) async throws(AuthError) -> T {
        let outcome: Result<T, AuthError> = await serialized { client in
            do throws(AuthError) {
                var flows = try await client.loadPending()
                let before = flows
                let value = try change(&flows)
                if flows.count > Self.maximumPendingFlows { flows.removeFirst(flows.count - Self.maximumPendingFlows) }
                if flows != before {
                    if flows.isEmpty {
                        try await client.removeRecord(key: client.pendingKey)
                    } else {
                        try await client.saveRecord(
                            StoredRecords.encode(flows, identity: client.identity), key: client.pendingKey)
                    }
                }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The pending sign-ins that are not stale, oldest first.
    func pendingFlows() async throws(AuthError) -> [PendingFlow] {
        let outcome: Result<[PendingFlow], AuthError> = await serialized { client in
            do throws(AuthError) { return .success(try await client.loadPending()) } catch { return .failure(error) }
        }
        return try outcome.get()
    }

    private func loadPending() async throws(AuthError) -> [PendingFlow] {
        guard let data = try await loadRecord(key: pendingKey) else { return [] }
        guard let flows = StoredRecords.decodePending(data, identity: identity) else {
            log(.info, "The pending sign-in record is corrupt or another client's; ignoring it.")
            return []
        }
        let now = now()
        return flows.filter { !$0.isStale(at: now, lifetime: pendingLifetime) }
    }
}
