import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The sign-out fence against GoTrue: a sign-out while a sign-in's request is on the wire wins, on the fragment
/// (implicit) sign-in and on the PKCE code exchange (the runtime's own test, `SignOutDuringExchangeTests`, uses a
/// scripted backend).
@Suite("Supabase: a sign-out while a sign-in's request is on the wire wins", timeLimit(minutes: 2))
struct SupabaseSignOutFenceTests {
    @Test("signOut() while the fragment sign-in's GET /user is on the wire: login_cancelled, nothing installed")
    func signOutWhileUserRequestIsOnTheWire() async throws {
        try await withSupabase(autoconfirm: false) { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse", confirmed: false)
            harness.gotrue.sendImplicitLink(to: "ada@example.com", type: "signup", redirectTo: SupabaseAppURLs.callback)
            let mail = try #require(harness.gotrue.outbox.last)
            let link = try await HeadlessUserAgent().follow(mail.link, until: SupabaseAppURLs.callback)
            let supabase = try harness.makeClient(redirectURIs: [:])
            await supabase.client.restore()
            let signedOut = SignOutRecord()
            harness.gotrue.before("GET", "/user") {
                do { try await supabase.client.signOut() } catch { signedOut.failure(error) }
                signedOut.done()
            }
            await expectCode(.loginCancelled) { _ = try await supabase.client.handleCallback(link) }
            #expect(signedOut.count == 1)
            #expect(supabase.client.state == .signedOut)
            #expect(await supabase.client.cachedSession == nil)
            #expect(try await harness.storedSession() == nil)
        }
    }

    @Test("signOut() while the PKCE code exchange (POST /token) is on the wire: login_cancelled, nothing stored")
    func signOutWhileExchangeIsOnTheWire() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            await supabase.client.restore()
            let (_, callback) = try await SupabaseOAuthTests.browserSignIn(supabase, harness: harness)
            let signedOut = SignOutRecord()
            harness.gotrue.before("POST", "/token") {
                do { try await supabase.client.signOut() } catch { signedOut.failure(error) }
                signedOut.done()
            }
            await expectCode(.loginCancelled) { _ = try await supabase.client.handleCallback(callback) }
            #expect(signedOut.count == 1)
            #expect(harness.gotrue.requests("/token").count == 1, "the code was exchanged once")
            #expect(supabase.client.state == .signedOut)
            #expect(await supabase.client.cachedSession == nil)
            #expect(try await harness.storedSession() == nil)
        }
    }
}

/// Records the sign-out the server ran while a request was held.
private final class SignOutRecord: Sendable {
    private let state = Locked((count: 0, errors: [String]()))
    func done() { state.withLock { $0.count += 1 } }
    func failure(_ error: any Error) { state.withLock { $0.errors.append("\(error)") } }
    var count: Int { state.withLock { $0.errors.isEmpty ? $0.count : -1 } }
}
