import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Providers that echo what they were sent in their errors: the code exchange and the password sign-in
/// (the refresh path is covered by ``SecretHygieneTests``).
@Suite("Reliability: secrets a provider echoes in its errors are redacted")
struct EchoedSecretRedactionTests {
    private func expectNoSecrets(
        _ error: AuthError?, _ secrets: [String], logs: [LogRecord], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error != nil, sourceLocation: sourceLocation)
        guard let error else { return }
        let texts =
            [error.message, error.providerCode ?? "", String(describing: error), String(reflecting: error)]
            + logs.map(\.message)
        for secret in secrets {
            for text in texts {
                #expect(!text.contains(secret), "a secret leaked into \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("the code exchange: an error echoing the code and the verifier carries neither", arguments: [400, 503])
    func codeExchange(status: Int) async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        harness.backend.override("/oauth/token") { request in
            let form = request.formBody
            let echoed = "code \(form["code"] ?? "") with verifier \(form["code_verifier"] ?? "")"
            return .json(["error": "invalid_grant", "error_description": echoed, "error_code": echoed], status: status)
        }
        let request = try await harness.client.prepareAuthorization()
        let code = "authorization-code-5f1d2c"
        let url = URL(string: "dev.acme.app://auth-callback?code=\(code)&state=\(request.state)")!
        var caught: AuthError?
        do { try await harness.client.handleCallback(url) } catch { caught = error }
        let verifier = try #require(harness.requests("/oauth/token").first?.formBody["code_verifier"])
        expectNoSecrets(caught, [code, verifier], logs: harness.logs.all)
        #expect(caught?.message.contains("<redacted>") == true)
    }

    @Test("the password sign-in: an error echoing the password and the username's secret never repeats it")
    func passwordSignIn() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        harness.backend.override("/token") { request in
            let body = request.jsonBody as? [String: Any]
            let password = body?["password"] as? String ?? ""
            return .json(
                ["error_code": "invalid_credentials", "msg": "password '\(password)' is wrong, try \(password)!"],
                status: 400)
        }
        let password = "correct-horse-battery-staple"
        var caught: AuthError?
        do { try await harness.client.signIn(username: "ada@example.com", password: password) } catch { caught = error }
        #expect(caught?.code == .invalidCredentials)
        expectNoSecrets(caught, [password, String(password.prefix(12))], logs: harness.logs.all)
    }

    @Test("a password with a NUL byte is cut byte for byte, to its last character, though a combining mark follows")
    func passwordWithNUL() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        harness.backend.override("/token") { request in
            let body = request.jsonBody as? [String: Any]
            let password = body?["password"] as? String ?? ""
            // The echo puts a combining acute accent right after the password: its last "e" becomes "é".
            return .json(
                ["error_code": "invalid_credentials", "msg": "password '\(password)\u{301}' is wrong"], status: 400)
        }
        let password = "ab\u{0}cd-correct-horse-battery-stape"
        var caught: AuthError?
        do { try await harness.client.signIn(username: "ada@example.com", password: password) } catch { caught = error }
        #expect(caught?.code == .invalidCredentials)
        let sent = try #require(harness.requests("/token").first?.jsonBody as? [String: Any])
        #expect((sent["password"] as? String).map { Array($0.utf8) } == Array(password.utf8))
        // Every byte of the password is gone; only the provider's own accent is left.
        #expect(
            caught.flatMap(\.providerMessage).map { Array($0.utf8) }
                == Array("password '<redacted>\u{301}' is wrong".utf8))
        let texts = [caught?.message ?? "", caught?.providerMessage ?? "", String(describing: caught)]
        for text in texts {
            // Compared as bytes: the test must not rely on the string search it checks the runtime avoids.
            #expect(!Self.bytes(text, contain: "battery"), "a secret leaked into \(text)")
            #expect(!Self.bytes(text, contain: "ab\u{0}cd"), "a secret leaked into \(text)")
        }
    }

    private static func bytes(_ text: String, contain part: String) -> Bool {
        let haystack = Array(text.utf8)
        let needle = Array(part.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }
}
