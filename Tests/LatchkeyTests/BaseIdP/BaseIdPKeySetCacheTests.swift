import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyTesting
import Testing

/// The PASETO access-token keys share the ID-token JWKS's key-set cache (issue 19): the stricter bounds of the
/// two apply to both. A set is kept for an hour, not forever, so a key the provider withdrew stops verifying;
/// a made-up `kid` triggers at most one refetch a minute.
@Suite struct BaseIdPKeySetCacheTests {
    @Test func theKeySetIsFetchedAgainAfterAnHour() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            try await harness.signIn(client)
            try await client.signOut()
            #expect(harness.server.requests("/v1/paseto-keys").count == 1)

            harness.clock.advance(30 * 60)
            try await harness.signIn(client)
            try await client.signOut()
            #expect(harness.server.requests("/v1/paseto-keys").count == 1)

            harness.clock.advance(31 * 60)
            try await harness.signIn(client)
            #expect(harness.server.requests("/v1/paseto-keys").count == 2)
        }
    }

    @Test func anUnknownKidTriggersOneRefetchAMinute() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            try await harness.signIn(client)
            try await client.signOut()
            harness.server.configure { $0.tokenDefect = .unknownKey }
            harness.clock.advance(5)
            for _ in 0..<3 {
                let error = await baseIdPError { try await harness.signIn(client) }
                #expect(error?.code.rawValue == "unknown_kid")
            }
            #expect(harness.server.requests("/v1/paseto-keys").count == 2)
            harness.clock.advance(61)
            let error = await baseIdPError { try await harness.signIn(client) }
            #expect(error?.code.rawValue == "unknown_kid")
            #expect(harness.server.requests("/v1/paseto-keys").count == 3)
        }
    }
}
