import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The principal comes from the verified PASETO access token, as Base IdP's SDKs build it (`gid` as its id,
/// `sub`, `email`, `role` and `scp` beside it); `/v1/me` must name the same `gid` and `sub`, at sign-in and
/// whenever the app fetches it again, and a refreshed token must name the same principal.
@Suite struct BaseIdPPrincipalTests {
    @Test func thePrincipalIsReadFromTheVerifiedAccessTokenNotFromMe() async throws {
        try await withBaseIdP { harness in
            // `/v1/me` names the same account but another email and role: the verified token wins.
            var me = BaseIdPServer.person
            me.email = "someone-else@example.com"
            me.role = "admin"
            harness.server.configure { $0.mePerson = me }
            let client = try harness.makeClient()
            let session = try await harness.signIn(client)
            #expect(harness.server.requests("/v1/me").count == 1)
            let person = BaseIdPServer.person
            let user = try #require(session.user)
            #expect(user.id == person.gid)
            #expect(user.email == person.email)
            #expect(user.role == person.role)
            #expect(user.scopes == person.scopes)
            #expect(user.attributes["sub"]?.string == person.sub)
            #expect(user.attributes["sid"]?.string == "sid_9a1b")
            #expect(client.client.state == .signedIn(user))
        }
    }

    @Test(arguments: ["gid", "sub"])
    func aMeDocumentNamingAnotherPrincipalFailsTheSignIn(_ member: String) async throws {
        try await withBaseIdP { harness in
            var me = BaseIdPServer.person
            if member == "gid" { me.gid = "gid_other" } else { me.sub = "usr_other" }
            harness.server.configure { $0.mePerson = me }
            let client = try harness.makeClient()
            let error = await baseIdPError { try await harness.signIn(client) }
            #expect(error?.code == .invalidResponse)
            #expect(error?.message.contains("/\(member)") == true, "\(error?.message ?? "")")
            #expect(harness.server.requests("/v1/me").count == 1)
            #expect(client.client.state == .signedOut)
            #expect(try await harness.fileStore.load(key: try harness.sessionKey) == nil)
            #expect(await client.client.cachedSession == nil)
        }
    }

    @Test func fetchingMeLaterMustAgreeWithTheSessionsToken() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            let session = try await harness.signIn(client)
            var me = BaseIdPServer.person
            me.gid = "gid_other"
            harness.server.configure { $0.mePerson = me }
            let error = await baseIdPError { _ = try await client.client.fetchUser() }
            #expect(error?.code == .invalidResponse)
            #expect(await client.client.cachedSession?.user == session.user)
        }
    }

    @Test func aRefreshReadsThePrincipalFromTheNewVerifiedToken() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            try await harness.signIn(client)
            harness.server.configure { $0.person.role = "owner" }
            harness.clock.advance(880)
            harness.server.resetRecording()
            _ = try await client.validAccessToken()
            #expect(harness.server.paths == ["/oauth2/token"])
            let user = try #require(await client.client.cachedSession?.user)
            #expect(user.id == BaseIdPServer.person.gid)
            #expect(user.role == "owner")
            let stored = try #require(try await harness.storedSession())
            #expect((stored["user"] as? [String: Any])?["role"] as? String == "owner")
        }
    }

    @Test func aRefreshedTokenForAnotherPrincipalIsRefused() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient()
            let session = try await harness.signIn(client)
            harness.server.configure { $0.person.gid = "gid_other" }
            harness.clock.advance(880)
            let error = await baseIdPError { _ = try await client.validAccessToken() }
            #expect(error?.code.rawValue == "invalid_claims")
            #expect(error?.message.contains("another principal") == true)
            let stored = try await harness.storedSession()
            #expect(stored?["accessToken"] as? String == session.accessToken)
        }
    }
}
