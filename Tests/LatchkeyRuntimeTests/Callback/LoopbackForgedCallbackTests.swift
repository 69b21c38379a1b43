import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// Another local program racing the browser to the loopback redirect server of a provider that echoes no
/// `state` (Supabase): it can neither hand over its own session nor end the user's sign-in.
@Suite("Callback: forged loopback callbacks for a provider that echoes no state")
struct LoopbackForgedCallbackTests {
    /// A stateless provider whose configured (fixed-port loopback) redirect URI also accepts fragment sessions,
    /// as Supabase's `callback.implicit` does for the default redirect URI.
    private static func harness() throws -> (AcmeHarness, URL) {
        let port = try UnassignedPort.take(on: .ipv4)
        let redirect = URL(string: "http://127.0.0.1:\(port)/callback")!
        let spec = AcmeSpec.make(
            callback: CallbackSpec(
                errorCodeParameter: "error_code", allowedRedirectKinds: [.customScheme, .loopback],
                implicitSession: ImplicitSessionSpec(redirects: [ImplicitSessionSpec.defaultRedirect])),
            returnsState: false)
        return (try AcmeHarness(spec: spec, redirectURI: redirect), redirect)
    }

    /// Sends the requests one after the other once the browser would open, then the real callback.
    private static func racer(
        _ redirect: URL, forged: [String], transport: URLSessionHTTPTransport, statuses: Locked<[Int?]>
    ) -> @Sendable (URL) async throws(AuthError) -> Void {
        { _ throws(AuthError) in
            Task {
                for target in forged {
                    let response = await RawHTTPClient.get(port: redirect.port!, target: target)
                    statuses.withLock { $0.append(response?.status) }
                }
                let real = URL(string: redirect.absoluteString + "?code=good-code")!
                _ = try? await transport.send(TransportRequest(method: "GET", url: real))
            }
        }
    }

    @Test("a fragment session sent to the loopback is refused, and the user's own sign-in completes")
    func fragmentSession() async throws {
        let (harness, redirect) = try Self.harness()
        defer { harness.server.stop() }
        // The other program's own, valid session.
        let theirs = try await harness.makeClient(store: InMemorySessionStore()).signIn(
            username: "mallory", password: "hunter2")
        let statuses = Locked<[Int?]>([])
        let forged = "/callback?#access_token=\(theirs.accessToken)&refresh_token=\(theirs.refreshToken ?? "")"
        let session = try await harness.client.signInWithLoopback(
            open: Self.racer(redirect, forged: [forged], transport: harness.transport, statuses: statuses),
            timeout: .seconds(60))
        #expect(statuses.withLock { $0 } == [400])
        #expect(session.accessToken != theirs.accessToken)
        #expect(harness.requests("/oauth/token").map { $0.formBody["code"] } == ["good-code"])
    }

    @Test("a URL that arrived through the loopback is never a session link, even on an implicit redirect URI")
    func loopbackArrivalIsNoSessionLink() async throws {
        let (harness, redirect) = try Self.harness()
        defer { harness.server.stop() }
        let theirs = try await harness.makeClient(store: InMemorySessionStore()).signIn(
            username: "mallory", password: "hunter2")
        _ = try await harness.client.prepareAuthorization(redirectURI: redirect)
        let link = URL(string: redirect.absoluteString + "#access_token=\(theirs.accessToken)&token_type=bearer")!
        let error = await #expect(throws: AuthError.self) {
            try await harness.client.handleCallback(link, arrival: .loopback)
        }
        #expect(error?.code == .invalidCallback)
        #expect(harness.requests("/user").isEmpty, "no user is fetched with the other program's token")
        #expect(await harness.client.canHandle(redirect), "the sign-in is still pending")
        #expect(harness.client.state.isSignedIn == false)
    }

    @Test("junk codes sent first are refused by the token endpoint, and the user's own sign-in completes")
    func junkCodes() async throws {
        let (harness, redirect) = try Self.harness()
        defer { harness.server.stop() }
        await harness.client.restore()
        let statuses = Locked<[Int?]>([])
        let session = try await harness.client.signInWithLoopback(
            open: Self.racer(
                redirect, forged: ["/callback?code=junk", "/callback?error=access_denied", "/callback?code=junk2"],
                transport: harness.transport, statuses: statuses),
            timeout: .seconds(60))
        #expect(statuses.withLock { $0 } == [200, 200, 200])
        #expect(session.accessToken == "at-1")
        #expect(harness.client.state.isSignedIn)
        #expect(
            harness.requests("/oauth/token").map { $0.formBody["code"] } == ["junk", "junk2", "good-code"],
            "each candidate is tried at the token endpoint, with the sign-in's verifier")
        #expect(await !harness.client.canHandle(redirect), "the accepted callback consumed the sign-in")
    }

    @Test("when only refused callbacks come, the sign-in times out naming the last refusal, and settles")
    func onlyJunk() async throws {
        let (harness, redirect) = try Self.harness()
        defer { harness.server.stop() }
        await harness.client.restore()
        // The junk callback is sent (and answered) before `open` returns; the timeout only has to outlast its
        // exchange at the token endpoint, generously so on a loaded machine or under ThreadSanitizer.
        let error = await #expect(throws: AuthError.self) {
            try await harness.client.signInWithLoopback(
                open: { _ throws(AuthError) in
                    _ = await RawHTTPClient.get(port: redirect.port!, target: "/callback?code=junk")
                },
                timeout: .seconds(20))
        }
        #expect(harness.requests("/oauth/token").map { $0.formBody["code"] } == ["junk"])
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("invalid_grant") == true)
        #expect(harness.client.state == .signedOut)
        #expect(await !harness.client.canHandle(redirect))
    }
}
