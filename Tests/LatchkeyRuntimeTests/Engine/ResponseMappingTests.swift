import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Engine: response mapping on the wire")
struct EngineResponseMappingTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let response: TestResponse
        let code: AuthError.Code
        var providerCode: String?
        var messageContains: String?

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "302", response: .redirect(to: "https://evil.example"), code: .redirectRefused),
        Row(
            name: "429", response: .json(["error": "slow"], status: 429, headers: [("Retry-After", "30")]),
            code: .rateLimited, messageContains: "Retry-After: 30"),
        Row(name: "503", response: .json(["error": "down"], status: 503), code: .serverError, providerCode: "down"),
        Row(name: "invalid_grant", response: .json(["error": "invalid_grant"], status: 400), code: .invalidGrant),
        Row(name: "access_denied", response: .json(["error": "access_denied"], status: 403), code: .loginCancelled),
        Row(name: "slow_down", response: .json(["error": "slow_down"], status: 400), code: .slowDown),
        Row(name: "unmapped", response: .json(["error": "weird"], status: 400), code: .unknown, providerCode: "weird"),
        Row(name: "integer code", response: .json(["error_code": 42], status: 400), code: .unknown, providerCode: "42"),
        Row(
            name: "rule by code",
            response: .json(["error_code": "session_expired", "msg": "Session Expired"], status: 400),
            code: .sessionExpired, messageContains: "Session Expired"),
        Row(name: "rule by status", response: .json([String: String](), status: 422), code: .validationFailed),
        Row(name: "HTML error", response: .text("<html>oops</html>", status: 401), code: .unknown),
        Row(name: "HTML success", response: .text("<html>hello</html>"), code: .invalidResponse),
    ]

    @Test("statuses and bodies map to stable codes", arguments: rows)
    func mapping(row: Row) async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        harness.backend.override("/settings") { _ in row.response }
        do {
            _ = try await harness.client.perform(action: "settings")
            Issue.record("expected \(row.code)")
        } catch {
            #expect(error.code == row.code)
            #expect(error.provider == "acme")
            if let providerCode = row.providerCode { #expect(error.providerCode == providerCode) }
            if let text = row.messageContains { #expect(error.message.contains(text)) }
        }
        #expect(harness.server.requests.count == 1)
    }

    @Test("an error inside a 2xx body is an error, with the status it names")
    func successBodyError() async throws {
        var spec = AcmeSpec.make()
        spec.errors.successBodyErrorPointer = "/error_code"
        spec.errors.statusPointer = "/status"
        let harness = try AcmeHarness(spec: spec)
        defer { harness.server.stop() }
        harness.backend.override("/settings") { _ in .json(["error_code": "invalid_credentials", "status": 400]) }
        do {
            _ = try await harness.client.perform(action: "settings")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidCredentials)
            #expect(error.status == 400)
        }
        harness.backend.override("/settings") { _ in .json(["error_code": 0, "ok": true]) }
        #expect(
            try await harness.client.perform(action: "settings")
                == .document(.object(["error_code": .number(0), "ok": .bool(true)])))
    }

    @Test("a token response without an access token is invalid_response")
    func missingAccessToken() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        harness.backend.override("/token") { _ in .json(["token_type": "bearer"]) }
        await expectAuthError(.invalidResponse) { try await harness.signIn() }
    }
}
