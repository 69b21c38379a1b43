import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

/// Offline verification of Base IdP's PASETO `v4.public` access tokens after the code exchange: a token
/// that fails the signature or a claim check fails with the Base IdP SDKs' code for that failure
/// (`invalid_signature`, `token_expired`, `invalid_claims`, `unknown_kid`, ...), `/v1/me` is not called and
/// nothing is stored.
@Suite struct BaseIdPAccessTokenTests {
    /// Signs in with tokens carrying `defect` and checks that the sign-in fails closed.
    private func expectRefused(
        _ defect: BaseIdPServer.TokenDefect, code: String, because reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await withBaseIdP { harness in
            harness.server.configure { $0.tokenDefect = defect }
            let client = try harness.makeClient()
            await client.restore()
            let error = await baseIdPError(sourceLocation: sourceLocation) { try await harness.signIn(client) }
            #expect(error?.code.rawValue == code, sourceLocation: sourceLocation)
            #expect(error?.kind == .invalidResponse, sourceLocation: sourceLocation)
            #expect(error?.provider == "base-idp", sourceLocation: sourceLocation)
            #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")", sourceLocation: sourceLocation)
            #expect(harness.server.requests("/oauth2/token").count == 1, sourceLocation: sourceLocation)
            #expect(harness.server.requests("/v1/me").isEmpty, sourceLocation: sourceLocation)
            #expect(client.client.state == .signedOut, sourceLocation: sourceLocation)
            #expect(
                try await harness.fileStore.load(key: try harness.sessionKey) == nil, sourceLocation: sourceLocation)
            #expect(await client.client.cachedSession == nil, sourceLocation: sourceLocation)
        }
    }

    @Test func aTamperedTokenIsRefused() async throws {
        try await expectRefused(.tampered, code: "invalid_signature", because: "signature is invalid")
    }

    @Test func anExpiredTokenIsRefused() async throws {
        try await expectRefused(.expired, code: "token_expired", because: "expired")
    }

    @Test func aTokenForAnotherAudienceIsRefused() async throws {
        try await expectRefused(.wrongAudience, code: "invalid_claims", because: "aud claim")
    }

    @Test func aTokenFromAnotherIssuerIsRefused() async throws {
        try await expectRefused(.wrongIssuer, code: "invalid_claims", because: "iss claim")
    }

    @Test func aTokenThatIsNotForAccessIsRefused() async throws {
        try await expectRefused(.notForAccess, code: "invalid_claims", because: "token_use")
    }

    @Test func aTokenSignedWithAnotherImplicitAssertionIsRefused() async throws {
        try await expectRefused(.otherImplicitAssertion, code: "invalid_signature", because: "signature is invalid")
    }

    @Test func theClockSkewIsTheSDKs30Seconds() async throws {
        // base-idp-typescript src/paseto.ts: `maxClockSkewSeconds ?? 30` for exp and nbf.
        try await expectRefused(.notBefore(seconds: 45), code: "token_not_yet_valid", because: "not valid")
        try await withBaseIdP { harness in
            harness.server.configure { $0.tokenDefect = .notBefore(seconds: 25) }
            let session = try await harness.signIn(try harness.makeClient())
            #expect(session.user?.id == BaseIdPServer.person.gid)
        }
    }

    @Test func aFooterWithoutTheBaseIdPTypeIsRefused() async throws {
        try await expectRefused(.footerWithoutType, code: "invalid_token", because: "footer has no typ")
    }

    @Test func aTokenWithoutARequiredIdentityClaimIsRefused() async throws {
        try await expectRefused(.missingSessionID, code: "invalid_claims", because: "no sid claim")
    }

    @Test func anImplicitAssertionPublishedInTheKeySetIsIgnored() async throws {
        // The TypeScript, Go and Rust SDKs sign-check with the constant `square-experience:idp:access:v1`
        // whatever a key entry's `implicit_assertion` says (paseto.ts IMPLICIT_ASSERTION).
        try await withBaseIdP { harness in
            harness.server.configure { $0.publishedImplicitAssertion = "square-experience:idp:access:v2" }
            let session = try await harness.signIn(try harness.makeClient())
            #expect(session.user?.id == BaseIdPServer.person.gid)
        }
    }

    @Test func aTokenSignedWithAnUnpublishedKeyIsRefusedAfterOneKeySetFetch() async throws {
        try await withBaseIdP { harness in
            harness.server.configure { $0.tokenDefect = .unknownKey }
            let client = try harness.makeClient()
            let error = await baseIdPError { try await harness.signIn(client) }
            #expect(error?.code.rawValue == "unknown_kid")
            #expect(error?.kind == .invalidResponse)
            #expect(error?.message.contains("kid") == true)
            // The set was fetched for this very token: fetching it again at once would not help.
            #expect(harness.server.requests("/v1/paseto-keys").count == 1)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey) == nil)
        }
    }

    @Test func aRotatedKeyIsFetchedOnceForItsUnknownKid() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            try await harness.signIn(client)
            try await client.signOut()

            try harness.server.rotateKey()
            harness.clock.advance(120)
            let session = try await harness.signIn(client)
            #expect(harness.server.requests("/v1/paseto-keys").count == 2)
            let footer = session.accessToken.split(separator: ".").last.map(String.init) ?? ""
            let kid = Base64URL.decode(footer).flatMap {
                try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]
            }?["kid"]
            #expect(kid as? String == harness.server.keyID)

            // Later tokens under the new key verify with the cached set.
            try await client.signOut()
            try await harness.signIn(client)
            #expect(harness.server.requests("/v1/paseto-keys").count == 2)
        }
    }

    @Test func aRefreshedTokenIsVerifiedBeforeItIsStored() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            let session = try await harness.signIn(client)
            harness.server.configure { $0.tokenDefect = .tampered }
            harness.clock.advance(880)
            let error = await baseIdPError { _ = try await client.validAccessToken() }
            #expect(error?.code.rawValue == "invalid_signature")
            let stored = try await harness.storedSession()
            let keptTheVerifiedToken = stored?["accessToken"] as? String == session.accessToken
            #expect(keptTheVerifiedToken)
        }
    }
}
