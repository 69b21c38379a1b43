import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The error codes Base IdP's SDKs share (`token_exchange_failed`, `key_fetch_failed`, `unknown_kid`, ...)
/// surface as `AuthError.code`, with kinds that keep Latchkey's session rules; and verification follows the
/// SDKs: the audience override, key documents whose unrelated entries are skipped.
@Suite struct BaseIdPErrorCodeTests {
    @Test func aRefusedCodeExchangeIsTokenExchangeFailed() async throws {
        try await withBaseIdP { harness in
            harness.server.configure { $0.tokenFailure = ("invalid_grant", 400) }
            let client = try harness.makeClient()
            let error = await baseIdPError { try await harness.signIn(client) }
            #expect(error?.code.rawValue == "token_exchange_failed")
            #expect(error?.kind == .rejected)
            #expect(error?.providerCode == "invalid_grant")
            #expect(error?.status == 400)
            #expect(harness.server.requests("/oauth2/token").count == 1)
            #expect(harness.server.requests("/v1/paseto-keys").isEmpty)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey) == nil)
        }
    }

    @Test func aRefusedRefreshIsTokenExchangeFailedAndEndsTheSession() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            try await harness.signIn(client)
            harness.server.configure { $0.tokenFailure = ("invalid_grant", 400) }
            harness.clock.advance(880)
            let error = await baseIdPError { _ = try await client.validAccessToken() }
            #expect(error?.code.rawValue == "token_exchange_failed")
            #expect(error?.kind == .rejected)
            #expect(client.client.state == .signedOut)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey) == nil)
        }
    }

    /// The SDKs' `postToken` raises `token_exchange_failed` for every non-OK status (base-idp-typescript
    /// src/client.ts); a 5xx keeps Latchkey's transport kind, so the session survives the outage.
    @Test func aTokenEndpointOutageIsTokenExchangeFailedAndKeepsTheSession() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            let session = try await harness.signIn(client)
            harness.server.configure { $0.tokenFailure = ("temporarily_unavailable", 503) }
            harness.clock.advance(880)
            let error = await baseIdPError { _ = try await client.validAccessToken() }
            #expect(error?.code.rawValue == "token_exchange_failed")
            #expect(error?.kind == .transport)
            #expect(error?.status == 503)
            #expect(client.client.state != .signedOut)
            #expect(try await harness.storedSession()?["accessToken"] as? String == session.accessToken)
        }
    }

    @Test func aKeyEndpointFailureIsKeyFetchFailed() async throws {
        try await withBaseIdP { harness in
            harness.server.configure { $0.keyEndpointStatus = 503 }
            let client = try harness.makeClient()
            let error = await baseIdPError { try await harness.signIn(client) }
            #expect(error?.code.rawValue == "key_fetch_failed")
            #expect(error?.kind == .transport)
            #expect(error?.status == 503)
            #expect(harness.server.requests("/v1/me").isEmpty)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey) == nil)
        }
    }

    @Test func aKeyDocumentWithoutAUsableKeyIsKeyFetchFailed() async throws {
        try await withBaseIdP { harness in
            // Only the signing key's entry, made unusable (wrong curve), besides entries of other purposes.
            harness.server.configure {
                $0.extraKeyEntries = [["kid": "base-local", "alg": "v4.local", "kty": "oct", "k": "AAAA"]]
                $0.publishedCurve = "X25519"
            }
            let client = try harness.makeClient()
            let error = await baseIdPError { try await harness.signIn(client) }
            #expect(error?.code.rawValue == "key_fetch_failed")
            #expect(harness.server.requests("/v1/me").isEmpty)
        }
    }

    /// base-idp-typescript src/paseto.ts: the entry with the token's kid and alg v4.public whose key is not
    /// 32 bytes is `invalid_key`, not an unknown kid.
    @Test func aTokenWhoseKeyEntryIsTheWrongSizeIsInvalidKey() async throws {
        try await withBaseIdP { harness in
            let other = Data(repeating: 7, count: 32).base64EncodedString()
            harness.server.configure {
                $0.extraKeyEntries = [
                    ["kid": "k-other", "alg": "v4.public", "kty": "OKP", "crv": "Ed25519", "public_key_base64": other]
                ]
                $0.publishedKeyBase64 = Data(repeating: 1, count: 31).base64EncodedString()
            }
            let client = try harness.makeClient()
            let error = await baseIdPError { try await harness.signIn(client) }
            #expect(error?.code.rawValue == "invalid_key")
            #expect(error?.kind == .invalidResponse)
            #expect(harness.server.requests("/v1/me").isEmpty)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey) == nil)
        }
    }

    @Test func unrelatedAndBrokenKeyEntriesAreSkipped() async throws {
        try await withBaseIdP { harness in
            let good = Data(repeating: 7, count: 32).base64EncodedString()
            harness.server.configure {
                $0.extraKeyEntries = [
                    ["kid": "k-v3", "alg": "v3.public", "kty": "EC", "crv": "P-384", "public_key_base64": good],
                    ["kid": "k-local", "alg": "v4.local", "kty": "oct", "k": good],
                    [
                        "kid": "k-short", "alg": "v4.public", "kty": "OKP", "crv": "Ed25519",
                        "public_key_base64": "AAAA",
                    ],
                    ["alg": "v4.public", "kty": "OKP", "crv": "Ed25519", "public_key_base64": good],
                    ["kid": "k-x25519", "alg": "v4.public", "kty": "OKP", "crv": "X25519", "public_key_base64": good],
                ]
            }
            let session = try await harness.signIn(try harness.makeClient())
            #expect(session.user?.id == BaseIdPServer.person.gid)
            #expect(harness.server.requests("/v1/paseto-keys").count == 1)
        }
    }

    @Test func theAudienceOverrideComesFromBaseIdPAudience() async throws {
        try await withBaseIdP { harness in
            harness.server.configure { $0.audience = "square-admin" }
            let overridden = try harness.makeClient(environment: ["BASE_IDP_AUDIENCE": "square-admin"])
            let session = try await harness.signIn(overridden)
            #expect(baseIdPClaims(session.accessToken)?["aud"] as? String == "square-admin")
            try await overridden.signOut()

            // Without the override, the SDKs' default audience is required.
            let plain = try harness.makeClient()
            let error = await baseIdPError { try await harness.signIn(plain) }
            #expect(error?.code.rawValue == "invalid_claims")
            #expect(error?.message.contains("aud") == true)
        }
    }

    @Test func theAudienceCanBePassedInCode() async throws {
        try await withBaseIdP { harness in
            harness.server.configure { $0.audience = "square-admin" }
            let client = try BaseIdPClient(
                issuer: harness.server.http.baseURL, clientID: BaseIdPServer.clientKey, audience: "square-admin",
                redirectURI: BaseIdPServer.customRedirect, options: harness.options())
            let session = try await harness.signIn(client)
            #expect(session.user?.id == BaseIdPServer.person.gid)
        }
    }
}
