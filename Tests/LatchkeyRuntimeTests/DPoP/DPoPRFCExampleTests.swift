import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// The examples of RFC 9449 (DPoP) and RFC 9126 (PAR) as test vectors, beside the thumbprint and `ath` ones of
/// ``DPoPProofTests``: the RFC's proofs verify with the key they carry, a proof of ours for the same inputs has the
/// same claims, the RFC's nonce errors are recognized, and the RFC's pushed authorization response opens the URL
/// the RFC shows.
@Suite("DPoP and PAR: the RFCs' own examples")
struct DPoPRFCExampleTests {
    /// RFC 9449 §4.1 Figure 4 (also the `DPoP` header of §5 Figure 6): a proof for a token request.
    static let tokenRequestProof =
        "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0Rsc"
        + "EJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2"
        + "In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2"
        + "VuIiwiaWF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37"
        + "xRZT3Lg"

    /// RFC 9449 §7.1 Figure 12: a proof for a protected resource request, with `ath`.
    static let resourceRequestProof =
        "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0Rsc"
        + "EJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2"
        + "In19.eyJqdGkiOiJlMWozVl9iS2ljOC1MQUVCIiwiaHRtIjoiR0VUIiwiaHR1IjoiaHR0cHM6Ly9yZXNvdXJjZS5leGFtcGxlLm9yZy9wcm"
        + "90ZWN0ZWRyZXNvdXJjZSIsImlhdCI6MTU2MjI2MjYxOCwiYXRoIjoiZlVIeU8ycjJaM0RaNTNFc05yV0JiMHhXWG9hTnk1OUlpS0NBcWtz"
        + "bVFFbyJ9.2oW9RP35yRqzhrtNP86L-Ey71EOptxRimPPToA1plemAgR6pxHF8y6-yqyVnmcw6Fy1dqd-jfxSYoMxhAJpLjA"

    /// RFC 9449's example access token (§5 Figure 7, §7.1).
    static let accessToken = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"
    /// RFC 9449's example nonce (§8 Figure 20, §9 Figure 23).
    static let nonce = "eyJ7S_zG.eyJH0-Z.HX4w-7v"
    /// The thumbprint of the RFC's example key (§6.1).
    static let jkt = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"

    @Test("RFC 9449 Figure 4: the token request proof verifies with its jwk; jkt, jti, htm, htu, iat are the RFC's")
    func tokenRequestProofVerifies() throws {
        let proof = try DPoPProofChecker.check(
            Self.tokenRequestProof, method: "POST", url: "https://server.example.com/token", accessToken: nil,
            now: Date(timeIntervalSince1970: 1_562_262_616)
        ).get()
        #expect(proof.jkt == Self.jkt)
        #expect(proof.jti == "-BwC3ESc6acc2lTc" && proof.iat == 1_562_262_616)
        #expect(proof.ath == nil && proof.nonce == nil)
        // The same bytes with the method or the URL changed are another request: refused.
        let otherMethod = DPoPProofChecker.check(
            Self.tokenRequestProof, method: "GET", url: "https://server.example.com/token", accessToken: nil,
            now: Date(timeIntervalSince1970: 1_562_262_616))
        #expect(throws: DPoPProofChecker.Refusal("htm")) { try otherMethod.get() }
    }

    @Test("RFC 9449 Figure 12: the resource proof verifies, and its ath is the hash of the RFC's access token")
    func resourceRequestProofVerifies() throws {
        let proof = try DPoPProofChecker.check(
            Self.resourceRequestProof, method: "GET", url: "https://resource.example.org/protectedresource",
            accessToken: Self.accessToken, now: Date(timeIntervalSince1970: 1_562_262_618)
        ).get()
        #expect(proof.jkt == Self.jkt && proof.jti == "e1j3V_bKic8-LAEB")
        #expect(proof.ath == DPoPProof.accessTokenHash(Self.accessToken))
        let otherToken = DPoPProofChecker.check(
            Self.resourceRequestProof, method: "GET", url: "https://resource.example.org/protectedresource",
            accessToken: Self.accessToken + "x", now: Date(timeIntervalSince1970: 1_562_262_618))
        #expect(throws: DPoPProofChecker.Refusal("ath")) { try otherToken.get() }
    }

    @Test("a proof of ours for Figure 4's and Figure 12's inputs has exactly the RFC's claims and header members")
    func ourProofHasTheRFCsClaims() throws {
        let key = try DPoPKey.generate()
        let ours = try DPoPProof.make(
            key: key, method: "POST", url: try #require(URL(string: "https://server.example.com/token")),
            accessToken: nil, nonce: nil, issuedAt: Date(timeIntervalSince1970: 1_562_262_616.9),
            jti: "-BwC3ESc6acc2lTc")
        #expect(try Self.sameJSON(Self.part(ours, 1), Self.part(Self.tokenRequestProof, 1)))
        let resource = try DPoPProof.make(
            key: key, method: "GET",
            url: try #require(URL(string: "https://resource.example.org/protectedresource?q=1#f")),
            accessToken: Self.accessToken, nonce: nil, issuedAt: Date(timeIntervalSince1970: 1_562_262_618),
            jti: "e1j3V_bKic8-LAEB")
        #expect(try Self.sameJSON(Self.part(resource, 1), Self.part(Self.resourceRequestProof, 1)))
        let header = try Self.part(ours, 0)
        let rfcHeader = try Self.part(Self.tokenRequestProof, 0)
        #expect(header["typ"] as? String == rfcHeader["typ"] as? String)
        #expect(header["alg"] as? String == rfcHeader["alg"] as? String)
        let jwk = try #require(header["jwk"] as? [String: Any])
        let rfcJWK = try #require(rfcHeader["jwk"] as? [String: Any])
        #expect(Set(jwk.keys) == Set(rfcJWK.keys) && jwk["kty"] as? String == "EC" && jwk["crv"] as? String == "P-256")
    }

    @Test("RFC 9449 Figure 20 (400 use_dpop_nonce) and Figure 23 (401 WWW-Authenticate) ask for one retry")
    func nonceErrorsOfTheRFC() throws {
        var context = RequestContext(provider: "rfc")
        context.proofKey = try DPoPKey.generate()
        let nonces = DPoPNonces()
        context.nonces = nonces
        let token = try #require(URL(string: "https://server.example.com/token"))
        let tokenError = TransportResponse(
            status: 400, headers: ["Content-Type": "application/json", "DPoP-Nonce": Self.nonce],
            body: Data(
                #"{"error": "use_dpop_nonce", "error_description": "Authorization server requires nonce in DPoP proof"}"#
                    .utf8))
        let request = TransportRequest(method: "POST", url: token)
        #expect(DPoPNonceRetryStage().interpret(tokenError, to: request, context: context) == .retry)
        #expect(nonces.nonce(for: token, role: .authorization) == Self.nonce)

        let resource = try #require(URL(string: "https://resource.example.org/protectedresource"))
        let resourceError = TransportResponse(
            status: 401,
            headers: [
                "WWW-Authenticate":
                    #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#,
                "DPoP-Nonce": Self.nonce,
            ])
        let get = TransportRequest(method: "GET", url: resource)
        var resourceContext = context  // a resource request carries its access token
        resourceContext.accessToken = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"
        #expect(DPoPNonceRetryStage().interpret(resourceError, to: get, context: resourceContext) == .retry)
        #expect(nonces.nonce(for: resource, role: .resource) == Self.nonce)
        // RFC 9449 §8's other shape: a 200 carrying a fresh DPoP-Nonce is remembered, not retried.
        let fresh = TransportResponse(status: 200, headers: ["DPoP-Nonce": "next-nonce"])
        #expect(DPoPNonceRetryStage().interpret(fresh, to: request, context: context) == .accept)
        #expect(nonces.nonce(for: token, role: .authorization) == "next-nonce")
    }

    @Test("RFC 9449 §8.1's grammar: 1*NQCHAR, printable ASCII but space, quote and backslash, at most 1,024 bytes")
    func nonceGrammar() throws {
        #expect(DPoPNonces.isNonce("eyJ7S_zG.eyJH0-Z.HX4w-7v"))
        #expect(DPoPNonces.isNonce("!#[]~"))
        #expect(DPoPNonces.isNonce(String(repeating: "n", count: 1024)))
        for refused in [
            "", " ", "a b", #"a"b"#, #"a\b"#, "a\u{7F}", "a\u{1F}", "é", String(repeating: "n", count: 1025),
        ] {
            #expect(!DPoPNonces.isNonce(refused), "\(refused.debugDescription)")
        }
        let nonces = DPoPNonces()
        let url = try #require(URL(string: "https://as.example.com/token"))
        #expect(nonces.remember("first", for: url, role: .authorization))
        #expect(!nonces.remember("not a nonce", for: url, role: .authorization))
        #expect(nonces.nonce(for: url, role: .authorization) == "first")  // the one remembered before stays
        #expect(nonces.nonce(for: url, role: .resource) == nil)  // a resource server's is kept apart
    }

    @Test("RFC 9126 §2.1–§4: the pushed request is a form POST; the §2.2 response opens the §4 URL")
    func pushedAuthorizationExample() async throws {
        var settings = DPoPServerCore.Settings()
        settings.pushRequestURI = "urn:ietf:params:oauth:request_uri:6esc_11ACC5bwc014ltc14eY22c"
        let harness = try DPoPHarness(settings)
        let before = Date()
        let client = try harness.client(dpop: .never, pushed: .always)
        let redirect = try #require(URL(string: "dev.dpop.app://callback"))
        let request = try await client.prepareAuthorization(redirectURI: redirect)
        #expect(
            request.url.query
                == "client_id=dpop-app&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3A6esc_11ACC5bwc014ltc14eY22c"
        )
        #expect(request.url.path == "/authorize")
        // expires_in 60, less the 2-second margin for the browser to open it.
        let expiresAt = try #require(request.expiresAt)
        #expect(expiresAt >= before.addingTimeInterval(58) && expiresAt <= Date().addingTimeInterval(58))

        let pushes = harness.server.requests("/par")
        try #require(pushes.count == 1)
        #expect(pushes[0].method == "POST")
        #expect(pushes[0].header("Content-Type")?.hasPrefix("application/x-www-form-urlencoded") == true)
        let form = pushes[0].formBody
        #expect(form["response_type"] == "code" && form["client_id"] == "dpop-app")
        #expect(form["redirect_uri"] == "dev.dpop.app://callback" && form["code_challenge_method"] == "S256")
        #expect(form["state"] == request.state && form["request_uri"] == nil)
    }

    /// Whether two JSON objects are equal (member order aside).
    static func sameJSON(_ a: [String: Any], _ b: [String: Any]) -> Bool {
        NSDictionary(dictionary: a).isEqual(to: b)
    }

    /// A part of a compact JWS, decoded as a JSON object.
    static func part(_ jws: String, _ index: Int) throws -> [String: Any] {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        let bytes = try #require(Base64URL.decode(String(parts[index])))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }
}
