import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// An app's own transport that fails the requests to some paths with an error echoing the whole request: the
/// URL, every header (the bearer token included) and the body (codes, verifiers, passwords, refresh tokens).
private final class EchoingTransport: HTTPTransport {
    let inner = URLSessionHTTPTransport()
    let failing = Locked<Set<String>>([])
    /// The requests it failed, for the test to read the secrets they carried.
    let echoed = Locked<[TransportRequest]>([])

    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        guard failing.withLock({ $0.contains(request.url.path) }) else { return try await inner.send(request) }
        echoed.withLock { $0.append(request) }
        let body = String(decoding: request.body ?? Data(), as: UTF8.self)
        let headers = request.headers.map { "\($0.name): \($0.value)" }.joined(separator: "; ")
        throw AuthError(
            .networkError, "could not send \(request.method) \(request.url.absoluteString) [\(headers)] \(body)",
            providerCode: body)
    }
}

@Suite("Reliability: an app transport's errors are redacted before they reach the app")
struct TransportErrorRedactionTests {
    private struct Client {
        let harness: AcmeHarness
        let transport = EchoingTransport()
        let client: AuthClient

        init() throws {
            harness = try AcmeHarness()
            client = try AuthClient(
                provider: harness.spec,
                configuration: AcmeHarness.configuration(
                    harness.server, values: [:], redirectURI: AcmeHarness.redirect),
                options: AuthClientOptions(
                    transport: transport, store: InMemorySessionStore(), refreshLeeway: .seconds(60),
                    logger: harness.logs.logger, userAgent: "LatchkeyTests/1", environment: { _ in nil },
                    clock: harness.clock.manual))
        }

        /// The secrets the failed requests carried: codes, verifiers, passwords, refresh tokens (form or JSON
        /// members) and the bearer token.
        var secrets: [String] {
            let names: Set<String> = ["code", "code_verifier", "password", "refresh_token"]
            return transport.echoed.withLock { requests in
                requests.flatMap { request -> [String] in
                    var values: [String] = []
                    if let body = request.body {
                        if let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
                            values += json.filter { names.contains($0.key) }.compactMap { $0.value as? String }
                        } else {
                            for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
                                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                                guard parts.count == 2, names.contains(parts[0]) else { continue }
                                values += [parts[1].removingPercentEncoding ?? parts[1]]
                            }
                        }
                    }
                    if let bearer = request.header("Authorization")?.split(separator: " ").last {
                        values.append(String(bearer))
                    }
                    return values
                }
            }
        }
    }

    private func expectRedacted(
        _ error: AuthError?, secrets: [String], logs: [LogRecord], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error?.code == .networkError, sourceLocation: sourceLocation)
        #expect(!secrets.isEmpty, sourceLocation: sourceLocation)
        guard let error else { return }
        var dumped = ""
        dump(error, to: &dumped)
        let texts =
            [error.message, error.providerCode ?? "", error.description, String(reflecting: error), dumped]
            + logs.map(\.message)
        for secret in secrets {
            for text in texts {
                #expect(!text.contains(secret), "\(secret) leaked into \(text)", sourceLocation: sourceLocation)
            }
        }
        #expect(error.message.contains("<redacted>"), sourceLocation: sourceLocation)
    }

    @Test("the code exchange: the code and the verifier never reach the error")
    func codeExchange() async throws {
        let setUp = try Client()
        defer { setUp.harness.server.stop() }
        setUp.transport.failing.withLock { $0 = ["/oauth/token"] }
        let request = try await setUp.client.prepareAuthorization()
        let url = URL(string: "dev.acme.app://auth-callback?code=authorization-code-5f1d2c&state=\(request.state)")!
        var caught: AuthError?
        do { try await setUp.client.handleCallback(url) } catch { caught = error }
        #expect(setUp.secrets.contains("authorization-code-5f1d2c"))
        expectRedacted(caught, secrets: setUp.secrets, logs: setUp.harness.logs.all)
    }

    @Test("the password sign-in: the password never reaches the error")
    func passwordSignIn() async throws {
        let setUp = try Client()
        defer { setUp.harness.server.stop() }
        setUp.transport.failing.withLock { $0 = ["/token"] }
        var caught: AuthError?
        do { try await setUp.client.signIn(username: "ada@example.com", password: "correct-horse-battery") } catch {
            caught = error
        }
        #expect(setUp.secrets.contains("correct-horse-battery"))
        expectRedacted(caught, secrets: setUp.secrets, logs: setUp.harness.logs.all)
    }

    @Test("the refresh: neither the refresh token nor the access token reaches the error")
    func refresh() async throws {
        let setUp = try Client()
        defer { setUp.harness.server.stop() }
        // Tokens long enough to be redacted (shorter than 8 characters are left alone).
        setUp.harness.backend.override("/token") { _ in
            .json([
                "access_token": "at-" + String(repeating: "a", count: 40),
                "refresh_token": "rt-" + String(repeating: "r", count: 40), "token_type": "bearer", "expires_in": 60,
            ])
        }
        let session = try await setUp.client.signIn(username: "ada@example.com", password: "correct-horse-battery")
        setUp.transport.failing.withLock { $0 = ["/oauth/token"] }
        setUp.harness.clock.advance(7200)
        var caught: AuthError?
        do { _ = try await setUp.client.validAccessToken() } catch { caught = error }
        let secrets = setUp.secrets
        #expect(secrets.contains(try #require(session.refreshToken)))
        expectRedacted(caught, secrets: secrets + [session.accessToken], logs: setUp.harness.logs.all)
    }
}
