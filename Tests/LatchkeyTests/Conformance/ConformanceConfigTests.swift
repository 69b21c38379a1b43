import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The Config RP modules, RFC 8414 metadata, and the callback's `iss` (RFC 9207).
@Suite("Conformance: discovery and callback issuer")
struct ConformanceConfigTests {
    @Test("oidcc-client-test-discovery-issuer-mismatch: issuer_mismatch, and no browser is opened")
    func discoveryIssuerMismatch() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.discovery = { $0["issuer"] = "https://evil.example" } }
            let rp = try ConformanceRP(op)
            let error = await #expect(throws: AuthError.self) { try await rp.client.prepareAuthorization() }
            #expect(error?.code == .issuerMismatch)
            #expect(op.paths == ["/.well-known/openid-configuration"], "nothing else is asked of that provider")
            #expect(await #expect(throws: AuthError.self) { try await rp.client.discover() }?.code == .issuerMismatch)
        }
    }

    @Test("RFC 8414 metadata is read only when a request needs a member the OpenID document lacks")
    func metadataOnlyWhenNeeded() async throws {
        try await AdversarialOP.run { op in
            op.behave {
                $0.discovery = { $0["revocation_endpoint"] = nil }
                $0.metadata = { issuer in
                    ["issuer": issuer, "token_endpoint": issuer + "/token", "revocation_endpoint": issuer + "/revoke"]
                }
            }
            let rp = try ConformanceRP(op)
            let session = try await rp.signIn()
            #expect(!op.paths.contains("/.well-known/oauth-authorization-server"), "the sign-in needs no metadata")
            try await rp.client.signOut()
            #expect(
                op.paths.suffix(2) == ["/.well-known/oauth-authorization-server", "/revoke"],
                "the sign-out needed the revocation endpoint")
            #expect(op.requests("/revoke").first?.formBody["token"] == session.refreshToken)
            try await rp.signIn()
            try await rp.client.signOut()
            #expect(op.requests("/.well-known/oauth-authorization-server").count == 1, "read once")
        }
    }

    @Test(
        "RFC 8414 metadata that failed with a 5xx is asked again by the next request that needs it; a 404 is final",
        arguments: [503, 404])
    func metadataRetriedAfterServerError(status: Int) async throws {
        try await AdversarialOP.run { op in
            op.behave {
                $0.discovery = { $0["revocation_endpoint"] = nil }
                $0.metadata = { issuer in
                    ["issuer": issuer, "token_endpoint": issuer + "/token", "revocation_endpoint": issuer + "/revoke"]
                }
                $0.metadataFailureStatus = status
            }
            let rp = try ConformanceRP(op)
            try await rp.signIn()
            try await rp.client.signOut()
            #expect(op.requests("/revoke").isEmpty, "no revocation endpoint was known")
            op.behave { $0.metadataFailureStatus = nil }
            let session = try await rp.signIn()
            try await rp.client.signOut()
            let metadataReads = op.requests("/.well-known/oauth-authorization-server").count
            if status >= 500 {
                #expect(metadataReads == 2, "asked again after the 5xx")
                #expect(op.requests("/revoke").first?.formBody["token"] == session.refreshToken)
            } else {
                #expect(metadataReads == 1, "a 404 is the provider's answer: not asked again")
                #expect(op.requests("/revoke").isEmpty)
            }
        }
    }

    @Test("RFC 9207: with authorization_response_iss_parameter_supported, a callback without iss is refused")
    func issRequiredWhenAdvertised() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.discovery = { $0["authorization_response_iss_parameter_supported"] = true } }
            let rp = try ConformanceRP(op)
            let error = try await rp.expectRejectedSignIn(.issuerMismatch)
            #expect(error != nil)
            #expect(op.requests("/token").isEmpty, "no code was exchanged")

            op.behave { $0.callbackIssuer = .issuer }
            try await rp.expectSignIn()
        }
    }

    @Test(
        "RFC 9207: a callback iss naming another issuer is refused, advertised or not",
        arguments: [false, true])
    func wrongIss(advertised: Bool) async throws {
        try await AdversarialOP.run { op in
            op.behave {
                $0.discovery = { $0["authorization_response_iss_parameter_supported"] = advertised }
                $0.callbackIssuer = .value("https://evil.example")
            }
            let rp = try ConformanceRP(op)
            try await rp.expectRejectedSignIn(.issuerMismatch)
            op.behave { $0.callbackIssuer = .value(op.issuer + "/") }
            try await rp.expectRejectedSignIn(.issuerMismatch)
            #expect(op.requests("/token").isEmpty, "no code was exchanged")
        }
    }

    @Test("RFC 9207: an error callback naming another issuer is issuer_mismatch and keeps the pending sign-in")
    func errorCallbackFromAnotherIssuer() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.callbackIssuer = .issuer }
            let rp = try ConformanceRP(op)
            let real = try await rp.callback()
            func errorCallback(iss: String) throws -> URL {
                var components = try #require(URLComponents(url: real, resolvingAgainstBaseURL: false))
                let state = components.queryItems?.first { $0.name == "state" }?.value
                components.queryItems = [
                    URLQueryItem(name: "error", value: "access_denied"), URLQueryItem(name: "state", value: state),
                    URLQueryItem(name: "iss", value: iss),
                ]
                return try #require(components.url)
            }
            // A mix-up: another authorization server's error, sent with this sign-in's state.
            let mixedUp = await #expect(throws: AuthError.self) {
                try await rp.client.handleCallback(try errorCallback(iss: "https://evil.example"))
            }
            #expect(mixedUp?.code == .issuerMismatch)
            // The pending sign-in was not consumed: the provider's own answer still completes it.
            #expect(try await rp.client.handleCallback(real).user?.id == AdversarialOP.subject)
            #expect(op.requests("/token").count == 1)
        }
    }

    @Test("RFC 9207: an error callback with this provider's iss reports the provider's error")
    func errorCallbackFromThisIssuer() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.callbackIssuer = .issuer }
            let rp = try ConformanceRP(op)
            let real = try await rp.callback()
            var components = try #require(URLComponents(url: real, resolvingAgainstBaseURL: false))
            components.queryItems = components.queryItems?.map {
                $0.name == "code" ? URLQueryItem(name: "error", value: "access_denied") : $0
            }
            let error = await #expect(throws: AuthError.self) {
                try await rp.client.handleCallback(try #require(components.url))
            }
            #expect(error?.code == .loginCancelled)
            #expect(op.requests("/token").isEmpty)
        }
    }

    @Test("a refused callback iss does not consume the pending sign-in")
    func wrongIssKeepsPending() async throws {
        try await AdversarialOP.run { op in
            op.behave { $0.callbackIssuer = .value("https://evil.example") }
            let rp = try ConformanceRP(op)
            let forged = try await rp.callback()
            await #expect(throws: AuthError.self) { try await rp.client.handleCallback(forged) }
            var components = try #require(URLComponents(url: forged, resolvingAgainstBaseURL: false))
            components.queryItems = components.queryItems?.map {
                $0.name == "iss" ? URLQueryItem(name: "iss", value: op.issuer) : $0
            }
            #expect(try await rp.client.handleCallback(try #require(components.url)).user?.id == AdversarialOP.subject)
        }
    }
}
