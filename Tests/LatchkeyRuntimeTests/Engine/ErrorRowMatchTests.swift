import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Error rows that match on members of the error body (a descriptor row's `match`), on the wire: Strava
/// answers `{"message": "Bad Request", "errors": [{"resource": "Application", "field": "client_id", "code":
/// "invalid"}]}`, with no OAuth `error` code to map.
@Suite("Engine: error rows matching on response members")
struct ErrorRowMatchTests {
    static func stravaError(field: String, resource: String = "Application") -> TestResponse {
        .json(
            ["message": "Bad Request", "errors": [["resource": resource, "field": field, "code": "invalid"]]],
            status: 400)
    }

    static func spec() -> ProviderSpec {
        var spec = AcmeSpec.make()
        spec.errors.messagePointers = ["/message"]
        spec.errors.rules.insert(
            contentsOf: [
                .init(
                    match: [
                        .init(pointer: "/errors/0/resource", value: "Application"),
                        .init(pointer: "/errors/0/field", value: "client_id"),
                    ], code: "invalid_client", kind: .misconfigured),
                .init(
                    status: 400, match: [.init(pointer: "/errors/0/field", value: "redirect_uri")],
                    code: "invalid_request", kind: .misconfigured),
                .init(match: [.init(pointer: "/retry", value: "false")], code: "provider_disabled", kind: .rejected),
                .init(match: [.init(pointer: "/errors/0/status", value: "40")], code: "rate_limited", kind: .transport),
            ], at: 0)
        return spec
    }

    static func failure(_ response: TestResponse) async throws -> (AuthError?, Int) {
        let harness = try AcmeHarness(spec: spec())
        defer { harness.server.stop() }
        harness.backend.override("/settings") { _ in response }
        var caught: AuthError?
        do {
            _ = try await harness.client.perform(action: "settings")
        } catch {
            caught = error
        }
        return (caught, harness.server.requests.count)
    }

    @Test("every member a row names must match: Strava's resource and field give invalid_client")
    func stravaClientID() async throws {
        let (error, requests) = try await Self.failure(Self.stravaError(field: "client_id"))
        #expect(error?.code == "invalid_client")
        #expect(error?.code.kind == .misconfigured)
        #expect(error?.message.contains("Bad Request") == true)
        #expect(error?.status == 400)
        #expect(requests == 1)
    }

    @Test("a member with another value fails the row: the next row (status and field) matches")
    func otherField() async throws {
        let (error, _) = try await Self.failure(Self.stravaError(field: "redirect_uri"))
        #expect(error?.code == "invalid_request")
        let (otherResource, _) = try await Self.failure(Self.stravaError(field: "client_id", resource: "Athlete"))
        #expect(otherResource?.code == .unknown)
    }

    @Test("a missing member, or a body that is not JSON, never matches")
    func missingMember() async throws {
        let (noErrors, _) = try await Self.failure(.json(["message": "Bad Request"], status: 400))
        #expect(noErrors?.code == .unknown)
        let (notJSON, _) = try await Self.failure(.text("<html>Bad Request</html>", status: 400))
        #expect(notJSON?.code == .unknown)
    }

    @Test("booleans and integers compare as text")
    func booleansAndIntegers() async throws {
        let (flag, _) = try await Self.failure(.json(["retry": false], status: 403))
        #expect(flag?.code == "provider_disabled")
        let (textFlag, _) = try await Self.failure(.json(["retry": "no"], status: 403))
        #expect(textFlag?.code == .unknown)
        let (number, _) = try await Self.failure(.json(["errors": [["status": 40]]], status: 400))
        #expect(number?.code == "rate_limited")
    }

    @Test("a callback row matches on a callback parameter (one-segment pointer); nothing is sent")
    func callbackRow() async throws {
        var spec = AcmeSpec.make()
        spec.errors.callbackRules.insert(
            .init(
                providerCode: "access_denied", match: [.init(pointer: "/error_reason", value: "user_denied")],
                code: "login_cancelled", kind: .cancelled), at: 0)
        spec.errors.callbackRules.insert(
            .init(
                match: [.init(pointer: "/error_reason", value: "blocked")], code: "provider_disabled", kind: .rejected),
            at: 0)
        let harness = try AcmeHarness(spec: spec)
        defer { harness.server.stop() }
        let first = try await harness.client.prepareAuthorization()
        await expectAuthError("provider_disabled") {
            try await harness.client.handleCallback(
                URL(
                    string: "dev.acme.app://auth-callback?error=access_denied&error_reason=blocked&state=\(first.state)"
                )!)
        }
        let second = try await harness.client.prepareAuthorization()
        await expectAuthError(.loginCancelled) {
            try await harness.client.handleCallback(
                URL(
                    string:
                        "dev.acme.app://auth-callback?error=access_denied&error_reason=user_denied&state=\(second.state)"
                )!
            )
        }
        #expect(harness.server.requests.isEmpty)
    }
}
