import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// An authorization server and resource server on 127.0.0.1 that enforce DPoP (RFC 9449) and take pushed
/// authorization requests (RFC 9126, with or without a proof): every proof is checked with ``DPoPProofChecker`` (signature with the
/// embedded `jwk`, `htm`, `htu`, `iat`, `ath`, replayed `jti`, nonce), tokens are bound to the proof's key, and
/// what was refused is recorded.
struct DPoPTestServer: Sendable {
    let core: DPoPServerCore
    let server: TestHTTPServer

    init(_ settings: DPoPServerCore.Settings = DPoPServerCore.Settings()) throws {
        let core = DPoPServerCore(settings)
        self.core = core
        server = try TestHTTPServer { request in core.respond(request) }
        core.base.withLock { $0 = server.baseURL }
    }

    var baseURL: URL { server.baseURL }
    func update(_ body: (inout DPoPServerCore.Settings) -> Void) { core.state.withLock { body(&$0.settings) } }
    var refusals: [String] { core.state.withLock { $0.refusals } }
    func proofKeys(_ path: String) -> [String] { core.state.withLock { $0.proofKeys[path] ?? [] } }
    func requests(_ path: String) -> [RecordedRequest] { server.requests.filter { $0.path == path } }
    /// Makes `code` redeemable, bound to `jkt` (a code from a direct, not pushed, authorization request).
    func issueCode(_ code: String, boundTo jkt: String?) { core.state.withLock { $0.codes[code] = .some(jkt) } }
    /// What was pushed under a `request_uri`.
    func pushed(_ requestURI: String) -> [String: String]? { core.state.withLock { $0.pushed[requestURI] } }
}

/// The state and the answers of ``DPoPTestServer``.
final class DPoPServerCore: Sendable {
    struct Settings: Sendable {
        /// Whether the token endpoint (and the pushed authorization endpoint, to a push with a proof) answers
        /// `use_dpop_nonce` to a proof without its current nonce.
        var tokenNonce: String?
        /// Whether the resource endpoint does.
        var resourceNonce: String?
        /// The `token_type` issued to a request with a proof (`nil`: `DPoP`).
        var tokenTypeWithProof = "DPoP"
        /// The `token_type` issued to a request without one.
        var tokenTypeWithoutProof = "Bearer"
        /// The `expires_in` of each pushed request, in turn (the last one repeats).
        var pushLifetimes: [Int] = [60]
        /// Whether every `use_dpop_nonce` answer moves the nonce on (so the retry's proof is refused again).
        var nonceRotates = false
        /// The discovery document's `dpop_signing_alg_values_supported`.
        var dpopAlgorithms = ["ES256"]
        /// An error the pushed authorization endpoint answers with, if any.
        var pushError: String?
        /// The `request_uri` every push answers with (default `urn:ietf:params:oauth:request_uri:req-N`).
        var pushRequestURI: String?
        /// Whether every accepted token or resource request moves that server's nonce on without saying so (no
        /// `DPoP-Nonce` on a success), as the OpenID conformance suite's FAPI 2.0 client tests do: the next
        /// request's proof is refused once.
        var noncesRotateAfterSuccess = false
        /// The `WWW-Authenticate` value of the resource endpoint's `use_dpop_nonce` answer.
        var resourceNonceChallenge = #"DPoP error="use_dpop_nonce", error_description="nonce required""#
        /// More `WWW-Authenticate` fields after it, each its own field.
        var extraResourceChallenges: [String] = []
        /// The `expires_in` of issued tokens (`nil`: left out).
        var tokenLifetime: Int? = 3600
        /// Whether discovery says `require_pushed_authorization_requests` and
        /// `authorization_response_iss_parameter_supported`.
        var discoveryRequiresPushAndIssuer = false
    }

    struct State: Sendable {
        var settings = Settings()
        var seenJTIs: Set<String> = []
        var refusals: [String] = []
        var issued = 0
        /// Token → the key thumbprint it is bound to (`nil` for a bearer token).
        var accessTokens: [String: String?] = [:]
        var refreshTokens: [String: String?] = [:]
        /// request_uri → pushed parameters.
        var pushed: [String: [String: String]] = [:]
        /// code → `dpop_jkt` of its pushed request.
        var codes: [String: String?] = [:]
        /// The thumbprints of the accepted proofs, by path, in order.
        var proofKeys: [String: [String]] = [:]
    }

    let state = Locked(State())
    let base = Locked<URL?>(nil)

    init(_ settings: Settings) {
        state.withLock { $0.settings = settings }
    }

    func respond(_ request: RecordedRequest) -> TestResponse {
        switch (request.method, request.path) {
        case ("POST", "/token"): token(request)
        case ("GET", "/resource"): resource(request)
        case ("POST", "/par"): push(request)
        case ("POST", "/device"):
            .json(
                [
                    "device_code": "device-code-1", "user_code": "ABCD-EFGH", "verification_uri": url("/verify"),
                    "expires_in": 600, "interval": 1,
                ] as [String: Any])
        case ("POST", "/revoke"): revoke(request)
        case ("GET", "/.well-known/openid-configuration"):
            discovery()
        default: .json(["error": "not_found"], status: 404)
        }
    }

    private func discovery() -> TestResponse {
        let requiresPush = state.withLock { $0.settings.discoveryRequiresPushAndIssuer }
        return .json(
            [
                "issuer": url(""), "token_endpoint": url("/token"),
                "dpop_signing_alg_values_supported": state.withLock { $0.settings.dpopAlgorithms },
                "require_pushed_authorization_requests": requiresPush,
                "authorization_response_iss_parameter_supported": requiresPush,
            ] as [String: Any])
    }

    private func url(_ path: String) -> String { (base.withLock { $0 }?.absoluteString ?? "") + path }

    /// Checks a proof; records and returns the refusal, or the proof.
    private func checkProof(
        _ request: RecordedRequest, path: String, accessToken: String?, nonce: String?
    ) -> Result<DPoPProofChecker.Proof, DPoPProofChecker.Refusal> {
        let result = DPoPProofChecker.check(
            request.header("DPoP"), method: request.method, url: url(path), accessToken: accessToken, now: Date())
        return state.withLock { state in
            switch result {
            case .failure(let refusal):
                state.refusals.append("\(path): \(refusal.reason)")
                return .failure(refusal)
            case .success(let proof):
                if let nonce, proof.nonce != nonce { return .failure(DPoPProofChecker.Refusal("use_dpop_nonce")) }
                guard state.seenJTIs.insert(proof.jti).inserted else {
                    state.refusals.append("\(path): replayed jti")
                    return .failure(DPoPProofChecker.Refusal("replayed jti"))
                }
                state.proofKeys[path, default: []].append(proof.jkt)
                return .success(proof)
            }
        }
    }

    private func token(_ request: RecordedRequest) -> TestResponse {
        let form = request.formBody
        let settings = state.withLock { $0.settings }
        var jkt: String?
        if request.header("DPoP") != nil {
            switch checkProof(request, path: "/token", accessToken: nil, nonce: settings.tokenNonce) {
            case .failure(let refusal) where refusal.reason == "use_dpop_nonce":
                if settings.nonceRotates {
                    state.withLock { $0.settings.tokenNonce = (settings.tokenNonce ?? "") + "+" }
                }
                return .json(
                    ["error": "use_dpop_nonce"], status: 400,
                    headers: [("DPoP-Nonce", settings.tokenNonce ?? "")])
            case .failure(let refusal):
                return .json(["error": "invalid_dpop_proof", "error_description": refusal.reason], status: 400)
            case .success(let proof):
                guard proof.ath == nil else {
                    state.withLock { $0.refusals.append("/token: ath in a token request's proof") }
                    return .json(["error": "invalid_dpop_proof", "error_description": "ath"], status: 400)
                }
                jkt = proof.jkt
            }
        }
        let bound: String?? = state.withLock { state in
            switch form["grant_type"] {
            case "refresh_token": return state.refreshTokens[form["refresh_token"] ?? ""]
            case "authorization_code": return state.codes[form["code"] ?? ""]
            default: return String??.some(nil)
            }
        }
        guard let bound else { return .json(["error": "invalid_grant"], status: 400) }
        if let bound, bound != jkt {
            state.withLock { $0.refusals.append("/token: key does not match the binding") }
            return .json(["error": "invalid_dpop_proof", "error_description": "key mismatch"], status: 400)
        }
        return state.withLock { state in
            state.issued += 1
            let access = "at-\(state.issued)"
            let refresh = "rt-\(state.issued)"
            let tokenType = jkt == nil ? state.settings.tokenTypeWithoutProof : state.settings.tokenTypeWithProof
            let binding = tokenType.caseInsensitiveCompare("DPoP") == .orderedSame ? jkt : nil
            state.accessTokens[access] = .some(binding)
            state.refreshTokens[refresh] = .some(jkt)
            if state.settings.noncesRotateAfterSuccess, let nonce = state.settings.tokenNonce {
                state.settings.tokenNonce = nonce + "+"
            }
            var answer: [String: Any] = [
                "access_token": access, "refresh_token": refresh, "token_type": tokenType, "user": ["id": "user-1"],
            ]
            if let lifetime = state.settings.tokenLifetime { answer["expires_in"] = lifetime }
            return TestResponse.json(answer)
        }
    }

    private func resource(_ request: RecordedRequest) -> TestResponse {
        let authorization = request.header("Authorization") ?? ""
        let settings = state.withLock { $0.settings }
        if authorization.hasPrefix("Bearer ") {
            let token = String(authorization.dropFirst(7))
            let binding = state.withLock { $0.accessTokens[token] }
            guard case .some(.none) = binding else { return .json(["error": "invalid_token"], status: 401) }
            return .json(["ok": true, "scheme": "Bearer"])
        }
        guard authorization.hasPrefix("DPoP ") else { return .json(["error": "invalid_token"], status: 401) }
        let token = String(authorization.dropFirst(5))
        switch checkProof(request, path: "/resource", accessToken: token, nonce: settings.resourceNonce) {
        case .failure(let refusal) where refusal.reason == "use_dpop_nonce":
            if settings.nonceRotates {
                state.withLock { $0.settings.resourceNonce = (settings.resourceNonce ?? "") + "+" }
            }
            return TestResponse(
                status: 401,
                headers: [(name: "WWW-Authenticate", value: settings.resourceNonceChallenge)]
                    + settings.extraResourceChallenges.map { (name: "WWW-Authenticate", value: $0) }
                    + [(name: "DPoP-Nonce", value: settings.resourceNonce ?? "")])
        case .failure:
            return TestResponse(status: 401, headers: [("WWW-Authenticate", #"DPoP error="invalid_dpop_proof""#)])
        case .success(let proof):
            guard state.withLock({ $0.accessTokens[token] }) == .some(proof.jkt) else {
                state.withLock { $0.refusals.append("/resource: token not bound to the proof's key") }
                return TestResponse(status: 401, headers: [("WWW-Authenticate", #"DPoP error="invalid_token""#)])
            }
            state.withLock { state in
                if state.settings.noncesRotateAfterSuccess, let nonce = state.settings.resourceNonce {
                    state.settings.resourceNonce = nonce + "+"
                }
            }
            return .json(["ok": true, "scheme": "DPoP"])
        }
    }

    /// A revocation endpoint (RFC 7009) that checks a proof when one is sent (Keycloak's logout endpoint requires
    /// one for a DPoP-bound refresh token): with `ath` when the request carries `Authorization: DPoP`.
    private func revoke(_ request: RecordedRequest) -> TestResponse {
        guard request.header("DPoP") != nil else { return TestResponse(status: 200) }
        let authorization = request.header("Authorization") ?? ""
        let token = authorization.hasPrefix("DPoP ") ? String(authorization.dropFirst(5)) : nil
        switch checkProof(request, path: "/revoke", accessToken: token, nonce: nil) {
        case .failure(let refusal):
            return .json(["error": "invalid_dpop_proof", "error_description": refusal.reason], status: 400)
        case .success:
            return TestResponse(status: 200)
        }
    }

    /// The pushed authorization endpoint. A proof, when sent, is checked as at the token endpoint (the
    /// authorization server's nonce, no `ath`) and binds the code to its key; with `dpop_jkt` too, both must name
    /// the same key (RFC 9449 §10.1, the conformance suite's ExtractParAuthorizationCodeDpopBindingKey).
    /// `noncesRotateAfterSuccess` moves the nonce on after an accepted push (the suite does so at its
    /// authorization response, which this server leaves to the test's browser).
    private func push(_ request: RecordedRequest) -> TestResponse {
        let form = request.formBody
        let settings = state.withLock { $0.settings }
        var jkt = form["dpop_jkt"]
        if request.header("DPoP") != nil {
            switch checkProof(request, path: "/par", accessToken: nil, nonce: settings.tokenNonce) {
            case .failure(let refusal) where refusal.reason == "use_dpop_nonce":
                return .json(
                    ["error": "use_dpop_nonce"], status: 400, headers: [("DPoP-Nonce", settings.tokenNonce ?? "")])
            case .failure(let refusal):
                return .json(["error": "invalid_dpop_proof", "error_description": refusal.reason], status: 400)
            case .success(let proof):
                guard proof.ath == nil, jkt == nil || jkt == proof.jkt else {
                    state.withLock { $0.refusals.append("/par: ath, or dpop_jkt is not the proof's key") }
                    return .json(["error": "invalid_dpop_proof"], status: 400)
                }
                jkt = proof.jkt
            }
        }
        return state.withLock { state in
            if let error = state.settings.pushError { return .json(["error": error], status: 400) }
            let index = state.pushed.count
            let uri = state.settings.pushRequestURI ?? "urn:ietf:params:oauth:request_uri:req-\(index)"
            state.pushed[uri] = form
            state.codes["code-\(index)"] = .some(jkt)
            if state.settings.noncesRotateAfterSuccess, let nonce = state.settings.tokenNonce {
                state.settings.tokenNonce = nonce + "+"
            }
            let lifetimes = state.settings.pushLifetimes
            return .json(["request_uri": uri, "expires_in": lifetimes[min(index, lifetimes.count - 1)]], status: 201)
        }
    }
}
