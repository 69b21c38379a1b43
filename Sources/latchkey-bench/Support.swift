import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime

/// A transport that must never be used: it counts calls and fails them.
final class NeverTransport: HTTPTransport {
    private let calls = Locked(0)

    var count: Int { calls.withLock { $0 } }

    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        calls.withLock { $0 += 1 }
        throw AuthError(.networkError, "latchkey-bench: this path must not send requests")
    }
}

/// Builds stored session records the way the runtime writes them (`{"version":2,"provider":…,"binding":…,
/// "session":…}`, dates in seconds since 1970, bound to the client's identity), so a client restores them
/// without any request. (Unbound version 1 records with opaque tokens are, rightly, never restored.)
enum StoredSession {
    private struct Envelope: Encodable {
        var version = 2
        var provider: String
        var binding: String
        var session: Session
    }

    static func record(_ session: Session, identity: ProviderIdentity) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(Envelope(provider: identity.provider, binding: identity.digest, session: session))
    }

    /// Writes `session` into `store` where `client` (configured with that store and no store key) looks for it.
    static func seed(_ session: Session, into store: any SessionStore, for client: AuthClient) async throws {
        try await store.save(try record(session, identity: client.identity), key: client.identity.defaultStoreKey)
    }

    static func session(provider: String, expiresIn seconds: TimeInterval, refreshToken: String? = "bench-rt-0")
        -> Session
    {
        let now = Date()
        return Session(
            accessToken: "bench-at-0", refreshToken: refreshToken, tokenType: "bearer",
            expiresAt: now.addingTimeInterval(seconds), issuedAt: now, scope: "openid",
            user: User(id: "user-ada", email: "ada@example.com", name: "Ada Lovelace"), provider: provider)
    }
}

/// A Supabase-style token response (the shape `SupabaseClient`'s session mapping reads).
enum TokenResponses {
    static func supabase(access: String, refresh: String) -> [String: Any] {
        [
            "access_token": access, "refresh_token": refresh, "token_type": "bearer", "expires_in": 3600,
            "user": [
                "id": "user-ada", "email": "ada@example.com", "role": "authenticated",
                "user_metadata": ["full_name": "Ada Lovelace"],
            ],
        ]
    }
}

/// Runs async work from synchronous top-level code on the global executor and waits for it.
func runDetached<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await Task.detached(priority: .userInitiated) { try await body() }.value
}
