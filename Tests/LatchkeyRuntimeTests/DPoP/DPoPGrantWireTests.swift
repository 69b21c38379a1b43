import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// DPoP proofs (RFC 9449) beyond the sign-in, refresh and resource requests: the device-code token polls, an
/// action that carries the session's access token, and the revocation a sign-out sends. Each proof is read back
/// from what the server received and checked with ``DPoPProofChecker`` (signature, `htm`, `htu`, `ath`).
@Suite("DPoP: proofs on device polling, actions and revocation", timeLimit(minutes: 2))
struct DPoPGrantWireTests {
    /// The proof a recorded request carried, checked for its method and URL (and `ath` of `accessToken`).
    private func proof(
        _ request: RecordedRequest?, _ harness: DPoPHarness, path: String, accessToken: String? = nil
    ) throws -> DPoPProofChecker.Proof {
        let request = try #require(request)
        let url = harness.server.baseURL.absoluteString + path
        return try DPoPProofChecker.check(
            request.header("DPoP"), method: request.method, url: url, accessToken: accessToken, now: Date()
        ).get()
    }

    @Test("the device-code token poll proves the new session's key (htm POST, htu the token endpoint, no ath)")
    func deviceCodePolling() async throws {
        let harness = try DPoPHarness()
        let client = try harness.client()
        let authorization = try await client.startDeviceAuthorization()
        // RFC 9449 defines no proof for the device authorization endpoint: none is sent there.
        #expect(harness.server.requests("/device").count == 1)
        #expect(harness.server.requests("/device").first?.header("DPoP") == nil)
        let session = try await client.completeDeviceAuthorization(authorization)
        #expect(session.tokenType == "DPoP")
        let poll = try proof(harness.server.requests("/token").last, harness, path: "/token")
        #expect(poll.htm == "POST")
        #expect(poll.htu == harness.server.baseURL.absoluteString + "/token")
        #expect(poll.ath == nil)
        #expect(session.dpopKey?.thumbprint == poll.jkt)
        #expect(harness.server.requests("/token").first?.formBody["device_code"] == "device-code-1")
        #expect(harness.server.refusals.isEmpty)
    }

    @Test("an action with the session's access token sends Authorization: DPoP and a proof with ath of that token")
    func actionCarriesProof() async throws {
        let harness = try DPoPHarness()
        let client = try harness.client()
        let session = try await client.signIn(username: "ada", password: "pw")
        let result = try await client.perform(action: "profile")
        guard case .document(let document) = result else {
            Issue.record("the action answered \(result)")
            return
        }
        #expect(document["scheme"]?.string == "DPoP")
        let sent = harness.server.requests("/resource").last
        #expect(sent?.header("Authorization") == "DPoP \(session.accessToken)")
        let checked = try proof(sent, harness, path: "/resource", accessToken: session.accessToken)
        #expect(checked.htm == "GET")
        #expect(checked.ath != nil)
        #expect(checked.jkt == session.dpopKey?.thumbprint)
        #expect(harness.server.refusals.isEmpty)
    }

    @Test("the sign-out's revocation of a DPoP-bound token proves the session's key (htm POST, htu /revoke)")
    func revocationCarriesProof() async throws {
        let harness = try DPoPHarness()
        let client = try harness.client()
        let session = try await client.signIn(username: "ada", password: "pw")
        try await client.signOut()
        let sent = harness.server.requests("/revoke")
        #expect(sent.count == 1)
        #expect(sent.first?.formBody["token"] == session.refreshToken)
        let checked = try proof(sent.first, harness, path: "/revoke")
        #expect(checked.htm == "POST")
        #expect(checked.ath == nil)
        #expect(checked.jkt == session.dpopKey?.thumbprint)
        #expect(harness.server.refusals.isEmpty)
    }

    @Test("a Bearer session's action and revocation carry no proof and Authorization: Bearer")
    func bearerSessionSendsNoProof() async throws {
        let harness = try DPoPHarness()
        let client = try harness.client(dpop: .optional)
        let session = try await client.signIn(username: "ada", password: "pw")
        #expect(session.tokenType == "Bearer")
        _ = try await client.perform(action: "profile")
        try await client.signOut()
        let resource = harness.server.requests("/resource")
        #expect(resource.count == 1)
        #expect(resource.first?.header("Authorization") == "Bearer \(session.accessToken)")
        #expect(resource.first?.header("DPoP") == nil)
        #expect(harness.server.requests("/revoke").first?.header("DPoP") == nil)
        #expect(harness.server.requests("/token").allSatisfy { $0.header("DPoP") == nil })
    }
}
