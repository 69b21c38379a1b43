import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
import LatchkeyVocabulary

/// DPoP (RFC 9449) as a strict provider does it, for descriptors that declare `dpop`: proofs checked at the token
/// endpoint, at the pushed authorization endpoint and at resources, tokens bound to the proof's key, replayed
/// proofs and missing nonces refused.
extension SimulatorCore {
    /// Whether the descriptor declares DPoP (`optional` or `required`).
    var declaresDPoP: Bool { provider.senderConstraint.dpop != .never }

    /// Why a proof was not accepted.
    enum ProofProblem: Error {
        /// The proof lacks the simulator's current nonce (RFC 9449 §8): answer `use_dpop_nonce` with it.
        case nonce(String)
        /// The proof is invalid or replayed.
        case refused(String)
    }

    /// The token endpoint's check (RFC 9449 §5): the thumbprint of a valid proof's key, `nil` for a request
    /// without a proof when DPoP is `optional`, or the 400 error to send (`invalid_dpop_proof`, `use_dpop_nonce`
    /// with a `DPoP-Nonce` header).
    func tokenEndpointProof(_ request: SimulatorRequest, _ routes: SimulatorRoutes) -> SimulatorOutcome<String?> {
        guard declaresDPoP else { return .success(nil) }
        let proofs = request.recorded.headerValues("DPoP")
        guard !proofs.isEmpty else {
            guard provider.senderConstraint.dpop == .required else { return .success(nil) }
            return .failure(error("invalid_dpop_proof", "This provider requires a DPoP proof.", status: 400))
        }
        return authorizationServerProof(proofs, request, routes)
    }

    /// The pushed authorization endpoint's check (RFC 9449 §10.1), which takes both of RFC 9449's ways to bind
    /// the code: without a proof, the `dpop_jkt` parameter (if any) names the key; a proof is checked as at the
    /// token endpoint (`htm`, `htu`, `iat`, replayed `jti`, nonce), and its key must be the one `dpop_jkt` names.
    /// - Returns: The thumbprint the code is bound to (the proof's key, else `dpop_jkt`; `nil` without DPoP), or
    ///   the 400 error to send (`invalid_dpop_proof`, `use_dpop_nonce` with a `DPoP-Nonce` header).
    func pushedRequestProof(_ request: SimulatorRequest, _ routes: SimulatorRoutes) -> SimulatorOutcome<String?> {
        guard declaresDPoP else { return .success(nil) }
        let named = request.parameter("dpop_jkt")
        let proofs = request.recorded.headerValues("DPoP")
        guard !proofs.isEmpty else { return .success(named) }
        switch authorizationServerProof(proofs, request, routes) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let jkt):
            guard named == nil || named == jkt else {
                return .failure(
                    error("invalid_dpop_proof", "The DPoP proof's key is not the one dpop_jkt names.", status: 400))
            }
            return .success(jkt)
        }
    }

    /// An authorization server's answer to a request's proofs: the valid proof's key thumbprint, or a 400
    /// `invalid_dpop_proof`, or a 400 `use_dpop_nonce` with a `DPoP-Nonce` header.
    private func authorizationServerProof(
        _ proofs: [String], _ request: SimulatorRequest, _ routes: SimulatorRoutes
    ) -> SimulatorOutcome<String?> {
        switch accept(proofs, request, routes, accessToken: nil) {
        case .success(let proof): return .success(proof.jkt)
        case .failure(.nonce(let nonce)):
            var response = error("use_dpop_nonce", "The DPoP proof must carry the server's nonce.", status: 400)
            response.headers.append(("DPoP-Nonce", nonce))
            return .failure(response)
        case .failure(.refused(let reason)):
            return .failure(error("invalid_dpop_proof", reason, status: 400))
        }
    }

    /// The grant of the access token a resource request presents (RFC 9449 §7): a DPoP-bound token only as
    /// `Authorization: DPoP` with a valid proof of its key carrying `ath`; a bearer token only with `scheme`.
    /// A refusal is a 401 with a `WWW-Authenticate` challenge (`DPoP error="invalid_token"`, `"invalid_dpop_proof"`
    /// or `"use_dpop_nonce"` with a `DPoP-Nonce` header).
    func resourceGrant(_ request: SimulatorRequest, scheme: String, _ routes: SimulatorRoutes)
        -> SimulatorOutcome<SimulatorLedger.Grant>
    {
        if declaresDPoP, let token = request.authorizationToken(scheme: "DPoP") {
            let proofs = request.recorded.headerValues("DPoP")
            guard !proofs.isEmpty else {
                return .failure(dpopChallenge("invalid_dpop_proof", "A DPoP-bound token needs a DPoP proof."))
            }
            let proof: SimulatorDPoPProof
            switch accept(proofs, request, routes, accessToken: token) {
            case .success(let accepted): proof = accepted
            case .failure(.nonce(let nonce)):
                return .failure(dpopChallenge("use_dpop_nonce", "The DPoP proof must carry the nonce.", nonce: nonce))
            case .failure(.refused(let reason)): return .failure(dpopChallenge("invalid_dpop_proof", reason))
            }
            let found = ledger.withLock { ledger in
                ledger.grant(forAccessToken: token).map { ($0, ledger.senderConstraint.bindings[token]) }
            }
            guard let (grant, binding) = found else {
                return .failure(dpopChallenge("invalid_token", "A current access token is required."))
            }
            guard binding == proof.jkt else {
                return .failure(dpopChallenge("invalid_token", "The token is not bound to the proof's key."))
            }
            return .success(grant)
        }
        let token = request.authorizationToken(scheme: scheme)
        let found = ledger.withLock { ledger in
            ledger.grant(forAccessToken: token).map { ($0, token.flatMap { ledger.senderConstraint.bindings[$0] }) }
        }
        guard let (grant, binding) = found else {
            return .failure(error("invalid_token", "A current access token is required.", status: 401))
        }
        guard binding == nil else {
            return .failure(dpopChallenge("invalid_token", "A DPoP-bound token must be sent as Authorization: DPoP."))
        }
        return .success(grant)
    }

    /// A 401 with an RFC 9449 §7.1 challenge (and the error in the body, for the descriptor's error mapping).
    func dpopChallenge(_ code: String, _ description: String, nonce: String? = nil) -> TestResponse {
        var response = error(code, description, status: 401)
        let quoted = description.replacingOccurrences(of: "\"", with: "'")
        response.headers.append(
            ("WWW-Authenticate", "DPoP error=\"\(code)\", error_description=\"\(quoted)\", algs=\"ES256\""))
        if let nonce { response.headers.append(("DPoP-Nonce", nonce)) }
        return response
    }

    /// Checks the one `DPoP` header of a request against the simulator's URL for it, its clock, its nonce and
    /// the proofs seen so far; an accepted proof's `jti` is remembered.
    private func accept(
        _ proofs: [String], _ request: SimulatorRequest, _ routes: SimulatorRoutes, accessToken: String?
    ) -> Result<SimulatorDPoPProof, ProofProblem> {
        guard proofs.count == 1 else { return .failure(.refused("A request carries one DPoP proof.")) }
        let now = Date()
        let target = URL(string: routes.base.absoluteString + request.recorded.path) ?? routes.base
        let proof: SimulatorDPoPProof
        switch SimulatorDPoPProof.check(
            proofs[0], method: request.method, url: target, accessToken: accessToken, now: now)
        {
        case .success(let checked): proof = checked
        case .failure(let refusal): return .failure(.refused(refusal.reason))
        }
        return ledger.withLock { ledger in
            if let nonce = ledger.senderConstraint.nonce, proof.nonce != nonce { return .failure(.nonce(nonce)) }
            guard ledger.senderConstraint.remember(proof, now: now) else {
                return .failure(.refused("The DPoP proof was already used (its jti was seen before)."))
            }
            return .success(proof)
        }
    }

    /// The token type of a session's access token: `DPoP` when it is bound to a key.
    func tokenType(of accessToken: String) -> String {
        ledger.withLock { $0.senderConstraint.bindings[accessToken] } == nil ? "Bearer" : "DPoP"
    }
}
