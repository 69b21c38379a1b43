import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Callbacks that anyone able to open a URL on the device can send: without the pending sign-in's state they
/// prove nothing, so they may neither end nor consume the sign-in.
@Suite("Callback: forged callbacks consume nothing")
struct ForgedCallbackTests {
    private func callback(_ state: String, _ extra: String = "code=good-code") -> URL {
        URL(string: "dev.acme.app://auth-callback?\(extra)&state=\(state)")!
    }

    @Test(
        "an error callback without the pending state is state_mismatch, sends nothing, and the real one completes",
        arguments: [
            "dev.acme.app://auth-callback?error=access_denied&error_description=Your%20account%20is%20locked",
            "dev.acme.app://auth-callback?error=access_denied&state=forged",
            "dev.acme.app://auth-callback?error=server_error&error_code=otp_expired",
            "dev.acme.app://auth-callback#error=access_denied",
        ])
    func forgedError(forged: String) async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        await harness.client.restore()
        let request = try await harness.client.prepareAuthorization()
        let error = await #expect(throws: AuthError.self) {
            try await harness.client.handleCallback(URL(string: forged)!)
        }
        #expect(error?.code == .stateMismatch)
        #expect(error?.message.contains("locked") == false, "the attacker's description never reaches the app")
        #expect(harness.server.requests.isEmpty)
        #expect(harness.client.state == .signedOut)
        #expect(await harness.client.canHandle(callback(request.state)), "the sign-in is still pending")
        let session = try await harness.client.handleCallback(callback(request.state))
        #expect(session.accessToken == "at-1")
        #expect(harness.requests("/oauth/token").count == 1)
    }

    @Test("a form_post error without the state is state_mismatch and the real form completes")
    func forgedFormPost() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let request = try await harness.client.prepareAuthorization()
        await expectAuthError(.stateMismatch) {
            try await harness.client.handleCallback(formBody: "error=access_denied&error_description=nope")
        }
        #expect(harness.server.requests.isEmpty)
        let session = try await harness.client.handleCallback(formBody: "code=good-code&state=\(request.state)")
        #expect(session.accessToken == "at-1")
    }

    @Test("the real error callback, with the state, still ends the sign-in with its mapped code")
    func realError() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let request = try await harness.client.prepareAuthorization()
        let error = await #expect(throws: AuthError.self) {
            try await harness.client.handleCallback(callback(request.state, "error=access_denied&error_description=no"))
        }
        #expect(error?.code == .loginCancelled)
        #expect(await !harness.client.canHandle(callback(request.state)))
        #expect(harness.server.requests.isEmpty)
    }

    @Test("a provider that echoes no state: an error callback is reported, but the sign-in stays pending")
    func statelessProvider() async throws {
        let harness = try AcmeHarness(spec: AcmeSpec.make(returnsState: false))
        defer { harness.server.stop() }
        await harness.client.restore()
        _ = try await harness.client.prepareAuthorization()
        let forged = URL(string: "dev.acme.app://auth-callback?error=access_denied&error_description=Call%20us")!
        let error = await #expect(throws: AuthError.self) { try await harness.client.handleCallback(forged) }
        #expect(error?.code == .loginCancelled)
        #expect(error?.message.contains("Call us") == false, "an unproven description is left out")
        #expect(harness.server.requests.isEmpty)
        #expect(harness.client.state == .signedOut)
        let session = try await harness.client.handleCallback(
            URL(string: "dev.acme.app://auth-callback?code=good-code")!)
        #expect(session.accessToken == "at-1")
    }
}
