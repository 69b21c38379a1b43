import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Setup from the client key alone, as Base IdP's SDKs resolve it: the redirect URI is the first of the
/// client configuration's `allowed_redirect_uris` and the scopes are its `allowed_scopes`, while every check of
/// a redirect URI (registered, allowed kind) still applies.
@Suite struct BaseIdPSetupTests {
    @Test func withOnlyTheClientKeyTheFirstListedRedirectURIAndTheAllowedScopesAreUsed() async throws {
        try await withBaseIdP { harness in
            harness.server.configure { $0.allowedScopes = ["openid", "profile", "org:read"] }
            let client = try harness.makeClient(redirectURI: nil)
            let browser = RecordingBrowser()
            let session = try await client.signInWithBrowser(using: browser)
            #expect(session.user?.id == BaseIdPServer.person.gid)

            let server = harness.server
            #expect(
                server.paths == [
                    "/v1/client-config", "/oauth2/authorize", "/oauth2/token", "/v1/paseto-keys", "/v1/me",
                ])
            let authorize = baseIdPQuery(server.requests("/oauth2/authorize").first)
            #expect(authorize["redirect_uri"] == BaseIdPServer.customRedirect.absoluteString)
            #expect(authorize["scope"] == "openid profile org:read")
            let form = server.requests("/oauth2/token").first?.formBody
            #expect(form?["redirect_uri"] == BaseIdPServer.customRedirect.absoluteString)
            // The callback scheme comes from the listed redirect URI.
            #expect(browser.requests.map(\.callbackScheme) == ["dev.example.latchkey"])
            #expect(browser.requests.map(\.redirectURI) == [BaseIdPServer.customRedirect])
        }
    }

    @Test func scopesTheAppNamesWinOverTheAllowedScopes() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient(redirectURI: nil)
            try await client.signInWithBrowser(using: HeadlessUserAgent(), scopes: ["openid"])
            #expect(baseIdPQuery(harness.server.requests("/oauth2/authorize").first)["scope"] == "openid")
        }
    }

    @Test func aConfiguredRedirectURIStillWinsAndMustBeListed() async throws {
        try await withBaseIdP { harness in
            let client = try harness.makeClient(redirectURI: harness.server.loopbackRedirect)
            try await harness.signIn(client)
            let authorize = baseIdPQuery(harness.server.requests("/oauth2/authorize").first)
            #expect(authorize["redirect_uri"] == harness.server.loopbackRedirect.absoluteString)
        }
    }

    @Test func aListedRedirectURIOfAKindTheDescriptorRefusesIsNotUsed() async throws {
        try await withBaseIdP { harness in
            // Plain http to a remote host is no allowed redirect kind (custom scheme, https, loopback).
            harness.server.configure { $0.allowedRedirectURIs = ["http://app.example.com/callback"] }
            let client = try harness.makeClient(redirectURI: nil)
            let browser = RecordingBrowser()
            let error = await baseIdPError { try await client.signInWithBrowser(using: browser) }
            #expect(error?.code == .invalidConfiguration)
            #expect(browser.requests.isEmpty)
            #expect(harness.server.paths == ["/v1/client-config"])
        }
    }

    @Test func withoutAConfiguredOrListedRedirectURIBrowserSignInIsInvalidConfiguration() async throws {
        try await withBaseIdP { harness in
            harness.server.configure { $0.allowedRedirectURIs = [] }
            let client = try harness.makeClient(redirectURI: nil)
            let browser = RecordingBrowser()
            let error = await baseIdPError { try await client.signInWithBrowser(using: browser) }
            #expect(error?.code == .invalidConfiguration)
            #expect(browser.requests.isEmpty)
            #expect(harness.server.paths == ["/v1/client-config"])
        }
    }

    @Test func loopbackSignInWithoutAConfiguredRedirectListensOnTheFirstListedLoopbackURI() async throws {
        try await withBaseIdP { harness in
            let loopback = harness.server.loopbackRedirect
            let client = try harness.makeClient(redirectURI: nil)
            let agent = HeadlessUserAgent()
            let session = try await client.signInWithLoopback(
                open: { url throws(AuthError) in try await agent.open(url) }, timeout: .seconds(30))
            #expect(session.user?.id == BaseIdPServer.person.gid)
            let authorize = baseIdPQuery(harness.server.requests("/oauth2/authorize").first)
            #expect(authorize["redirect_uri"] == loopback.absoluteString)
            #expect(harness.server.requests("/oauth2/token").first?.formBody["redirect_uri"] == loopback.absoluteString)
        }
    }
}

/// A browser that records each request, then plays the user with a ``HeadlessUserAgent``.
final class RecordingBrowser: WebAuthenticator, Sendable {
    private let recorded = Locked<[WebAuthenticationRequest]>([])
    private let agent = HeadlessUserAgent()

    /// The requests the sign-in opened the browser with.
    var requests: [WebAuthenticationRequest] { recorded.withLock { $0 } }

    func authenticate(_ request: WebAuthenticationRequest) async throws(AuthError) -> URL {
        recorded.withLock { $0.append(request) }
        return try await agent.authenticate(request)
    }
}
