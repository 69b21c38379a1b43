import Foundation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// What the refresh, revocation and end-session grants build and read, without the network (their wire behaviour
/// is in `EngineRefreshTests`, `SignOutTests` and `EndSessionTests`).
@Suite("Grants: refresh, revocation and end session as units")
struct GrantUnitTests {
    private static let issued = Date(timeIntervalSince1970: 1_000_000)

    private static func session(
        access: String, refresh: String? = nil, id: String? = nil, user: User? = nil, captures: [String: String] = [:]
    ) -> Session {
        Session(
            accessToken: access, refreshToken: refresh, idToken: id, issuedAt: issued, user: user, provider: "acme",
            captures: captures)
    }

    @Test("the refresh grant sends the session's refresh token in a token request carrying its access token")
    func refreshRequest() {
        let grant = RefreshGrant(
            flow: RefreshFlowSpec(request: "refresh"), base: Self.session(access: "at-1", refresh: "rt-1"))
        #expect(grant.request.name == "refresh")
        #expect(grant.request.variables == ["refresh_token": .string("rt-1"), "redirect_uri": JSON?.none])
        let yahooLike = RefreshGrant(
            flow: RefreshFlowSpec(request: "refresh"), base: Self.session(access: "at-1", refresh: "rt-1"),
            redirectURI: URL(string: "https://app.example/callback"))
        #expect(yahooLike.request.variables["redirect_uri"] == .string("https://app.example/callback"))
        #expect(grant.request.isTokenRequest)
        #expect(grant.request.accessToken == "at-1")
    }

    @Test("the refreshed session keeps what the answer leaves out and merges captures, the answer's winning")
    func refreshAnswer() {
        let user = User(id: "u1")
        let grant = RefreshGrant(
            flow: RefreshFlowSpec(request: "refresh"),
            base: Self.session(
                access: "at-1", refresh: "rt-1", id: "id-1", user: user, captures: ["cloud": "a", "site": "s"]))
        let bare = grant.session(from: Self.session(access: "at-2", captures: ["cloud": "b"]))
        #expect(bare.accessToken == "at-2")
        #expect(bare.refreshToken == "rt-1")
        #expect(bare.idToken == "id-1")
        #expect(bare.user == user)
        #expect(bare.captures == ["cloud": "b", "site": "s"])
        let rotated = grant.session(from: Self.session(access: "at-2", refresh: "rt-2", id: "id-2"))
        #expect(rotated.refreshToken == "rt-2")
        #expect(rotated.idToken == "id-2")
    }

    @Test("a refresh failure is a reuse only for one of the flow's reuse codes")
    func refreshReuse() {
        let grant = RefreshGrant(
            flow: RefreshFlowSpec(request: "refresh", reuseCodes: ["refresh_token_already_used"]),
            base: Self.session(access: "at-1", refresh: "rt-1"))
        let reused = AuthError(
            .invalidGrant, "used", providerCode: "refresh_token_already_used", provider: "acme")
        #expect(grant.isReuse(reused))
        #expect(!grant.isReuse(AuthError(.invalidGrant, "other", provider: "acme")))
    }

    @Test("the revocation carries the session's tokens and the scope (the flow's default when none is named)")
    func revocationRequest() throws {
        let flow = SignOutFlowSpec(request: "logout", scopes: ["local", "global"], defaultScope: "global")
        let current = Self.session(access: "at-1", refresh: "rt-1")
        let revocation = try #require(RevocationGrant(flow: flow, session: current, scope: nil))
        #expect(revocation.request.name == "logout")
        #expect(
            revocation.request.variables == [
                "scope": .string("global"), "access_token": .string("at-1"), "refresh_token": .string("rt-1"),
                "id_token": JSON?.none,
            ])
        #expect(!revocation.request.isTokenRequest)
        #expect(revocation.request.accessToken == "at-1")
        #expect(revocation.proofKey == nil)
        let local = try #require(RevocationGrant(flow: flow, session: current, scope: "local"))
        #expect(local.request.variables["scope"] == .string("local"))
    }

    @Test("a sign-out flow without a request has no revocation")
    func localSignOut() {
        #expect(RevocationGrant(flow: SignOutFlowSpec(), session: Self.session(access: "at-1"), scope: nil) == nil)
    }

    @Test("the end session renders the state, the post-logout redirect URI and the ID token, and keeps them")
    func endSession() throws {
        let flow = EndSessionFlowSpec(url: AcmeSpec.template("{baseURL}/logout"), query: [])
        let redirect = try #require(URL(string: "com.example.app:/logout"))
        let grant = EndSessionGrant(flow: flow, redirect: redirect, state: "st", idToken: "id-1")
        #expect(
            grant.variables == [
                "state": .string("st"), "post_logout_redirect_uri": .string("com.example.app:/logout"),
                "id_token": .string("id-1"),
            ])
        let url = try #require(URL(string: "https://idp.example/logout?state=st"))
        #expect(grant.request(url: url) == EndSessionRequest(url: url, state: "st", postLogoutRedirectURI: redirect))
        let bare = EndSessionGrant(flow: flow, redirect: nil, state: "st", idToken: nil)
        #expect(
            bare.variables == ["state": .string("st"), "post_logout_redirect_uri": JSON?.none, "id_token": JSON?.none])
    }
}
