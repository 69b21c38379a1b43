import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Everything a run printed or could print: descriptions, debug descriptions, dumps, error messages, log
/// records. Checked against every secret the run handled.
final class Transcript: Sendable {
    private let texts = Locked<[String]>([])
    private let secrets = Locked<[String]>([])

    /// Adds a value's `description`, `debugDescription` (`String(reflecting:)`) and `dump`.
    func add(_ value: Any, _ label: String) {
        var dumped = ""
        dump(value, to: &dumped)
        let text = "\(label): \(String(describing: value)) | \(String(reflecting: value)) | \(dumped)"
        texts.withLock { $0.append(text) }
    }

    /// Adds an error's description, message and provider code.
    func add(error: AuthError, _ label: String) {
        add(error, label)
        texts.withLock { $0.append("\(label): \(error.message) | \(error.providerCode ?? "")") }
    }

    /// A value that must never appear.
    func secret(_ value: String?) {
        guard let value, !value.isEmpty else { return }
        secrets.withLock { $0.append(value) }
    }

    var allSecrets: [String] { secrets.withLock { $0 } }
    var count: Int { texts.withLock { $0.count } }

    /// The texts that contain a secret, or 12 characters of one's start or end (a truncated echo).
    func leaks() -> [String] {
        let secrets = allSecrets
        return texts.withLock { texts in
            texts.compactMap { text in
                for secret in secrets {
                    let probes = secret.count >= 24 ? [String(secret.prefix(12)), String(secret.suffix(12))] : [secret]
                    if let probe = probes.first(where: text.contains) {
                        return "…\(probe)… in \(text.prefix(300))"
                    }
                }
                return nil
            }
        }
    }
}

/// Issue 8, part 6: no token, authorization code or PKCE verifier ever reaches a description, an error or a
/// log record, and the file store keeps its records private.
@Suite("Reliability: secrets")
struct ReliabilitySecretTests {
    static func random(_ prefix: String) -> String {
        prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "") + "Zq"
    }

    /// The callback URL of a prepared sign-in.
    static func callback(_ request: AuthorizationRequest, code: String, issuer: URL) -> URL {
        URL(string: "dev.acme.app://auth-callback?code=\(code)&state=\(request.state)&iss=\(issuer.absoluteString)")!
    }

    @Test("a full browser sign-in, refresh (with a fault) and sign-out leaks no secret; files are 0600 in 0700")
    func fullRun() async throws {
        let scratch = ScratchDirectory("secrets")
        defer { scratch.remove() }
        let directory = scratch.child("store")
        let store = FileSessionStore(directory: directory)
        let harness = try AcmeHarness(store: store, random: SystemRandomSource())
        defer { harness.server.stop() }
        let transcript = Transcript()
        let client = harness.client
        let code = Self.random("code-")
        let first = (access: Self.random("at-"), refresh: Self.random("rt-"), id: Self.random("id-"))
        let second = (access: Self.random("at-"), refresh: Self.random("rt-"), id: Self.random("id-"))
        for secret in [code, first.access, first.refresh, first.id, second.access, second.refresh, second.id] {
            transcript.secret(secret)
        }
        let faultNext = Locked(true)
        harness.backend.override("/oauth/token") { request in
            let form = request.formBody
            transcript.secret(form["code_verifier"])
            func tokens(_ set: (access: String, refresh: String, id: String)) -> TestResponse {
                .json([
                    "access_token": set.access, "refresh_token": set.refresh, "id_token": set.id,
                    "token_type": "bearer",
                    "expires_in": 3600, "user": ["id": "user-1", "email": "ada@example.com"],
                ])
            }
            if form["grant_type"] == "authorization_code", form["code"] == code { return tokens(first) }
            guard form["grant_type"] == "refresh_token", form["refresh_token"] == first.refresh else {
                return .json(["error": "invalid_grant"], status: 400)
            }
            if faultNext.withLock({ value in
                defer { value = false }
                return value
            }) {
                return .json(["error": "temporarily_unavailable", "msg": "upstream down"], status: 503)
            }
            return tokens(second)
        }
        let recorder = StateRecorder(client)

        transcript.add(await client.restore(), "restore")
        let request = try await client.prepareAuthorization()
        transcript.add(request, "authorization request")
        let pendingFile = store.fileURL(forKey: client.storeKey + ".pending")
        #expect(try permissions(pendingFile) == 0o600)
        #expect(try permissions(directory) == 0o700)

        let session = try await client.handleCallback(
            Self.callback(request, code: code, issuer: harness.server.baseURL))
        transcript.add(session, "signed-in session")
        transcript.add(session.userOrPlaceholder, "user")
        transcript.add(client.state, "state")
        #expect(session.accessToken == first.access)
        #expect(try permissions(store.fileURL(forKey: client.storeKey)) == 0o600)

        harness.clock.advance(3600 + 1)
        do {
            _ = try await client.validAccessToken()
            Issue.record("expected the injected 503")
        } catch {
            #expect(error.code == .serverError)
            transcript.add(error: error, "refresh fault")
        }
        let refreshed = try await client.currentSession()
        #expect(refreshed.accessToken == second.access)
        transcript.add(refreshed, "refreshed session")
        if let cached = await client.cachedSession { transcript.add(cached, "cached session") }
        #expect(try permissions(store.fileURL(forKey: client.storeKey)) == 0o600)
        #expect(try permissions(store.lockURL(forKey: client.storeKey)) == 0o600)
        #expect(try permissions(directory) == 0o700)

        try await client.signOut()
        #expect(harness.requests("/logout").first?.header("Authorization") == "Bearer \(second.access)")
        await expectAuthError(.sessionMissing) { _ = try await client.validAccessToken() }
        do {
            _ = try await client.validAccessToken()
        } catch {
            transcript.add(error: error, "after sign-out")
        }
        await recorder.settle(on: .signedOut)
        for state in recorder.all { transcript.add(state, "published state") }
        for record in harness.logs.all {
            transcript.add(record, "log record")
            transcript.add(record.message, "log message")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(leftovers == [client.storeKey + ".json.lock"], "files left after sign-out: \(leftovers)")

        #expect(transcript.allSecrets.count == 8, "the verifier was not captured: \(transcript.allSecrets.count)")
        #expect(harness.logs.all.count > 3)
        let leaks = transcript.leaks()
        #expect(leaks.isEmpty, "\(leaks)")
        reportFigure(
            "secret scan",
            "\(transcript.count) texts (descriptions, dumps, errors, \(harness.logs.all.count) log records) "
                + "checked against \(transcript.allSecrets.count) secrets: 0 leaks")
    }

    @Test("the scan catches a leak: a session's raw fields do contain its tokens")
    func scanCanFail() {
        let transcript = Transcript()
        let token = Self.random("rt-")
        transcript.secret(token)
        let session = Session(accessToken: "a", refreshToken: token, issuedAt: Date(), provider: "acme")
        transcript.add(session, "redacted")
        #expect(transcript.leaks().isEmpty)
        transcript.add("refresh_token=\(token.prefix(20))", "a truncated echo")
        #expect(transcript.leaks().count == 1)
    }

    @Test("a provider that echoes the refresh token in its errors never gets it into an AuthError or a log")
    func echoedRefreshToken() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let transcript = Transcript()
        let refreshToken = Self.random("rt-") + String(repeating: "k", count: 400)
        transcript.secret(refreshToken)
        let accessToken = Self.random("at-")
        transcript.secret(accessToken)
        let answers = Locked(0)
        harness.backend.override("/token") { _ in
            .json([
                "access_token": accessToken, "refresh_token": refreshToken, "token_type": "bearer", "expires_in": 60,
            ])
        }
        harness.backend.override("/oauth/token") { request in
            let echoed = request.formBody["refresh_token"] ?? ""
            let answer = answers.withLock { value in
                defer { value += 1 }
                return value
            }
            switch answer {
            case 0: return .json(["error": "server_error", "msg": "cannot refresh \(echoed) now"], status: 503)
            case 1: return .json(["error_code": "bad token \(echoed)"], status: 400)
            default: return .json(["error": "invalid_request", "error_description": "token=\(echoed)"], status: 400)
            }
        }
        try await harness.signIn()
        harness.clock.advance(120)
        for attempt in 0..<3 {
            do {
                _ = try await harness.client.validAccessToken()
                Issue.record("attempt \(attempt): expected an error")
            } catch {
                transcript.add(error: error, "attempt \(attempt)")
                #expect(error.kind != .rejected)
            }
        }
        #expect(harness.client.state.isSignedIn)
        for record in harness.logs.all { transcript.add(record, "log record") }
        let leaks = transcript.leaks()
        #expect(leaks.isEmpty, "\(leaks)")
    }
}
