import Foundation
import LatchkeyPlatform
import LatchkeyTokens

/// Switches for DPoP (RFC 9449) and pushed authorization requests (RFC 9126), for descriptors that declare them
/// (`dpop`, `pushedAuthorization`).
extension ProviderSimulator {
    /// Demands a DPoP nonce (RFC 9449 §8, §9), or stops demanding one.
    ///
    /// While on, a proof without the simulator's current nonce is refused with `use_dpop_nonce` and a `DPoP-Nonce`
    /// header: a 400 `{"error":"use_dpop_nonce"}` at the token and pushed authorization endpoints, a 401 with
    /// `WWW-Authenticate: DPoP error="use_dpop_nonce"` at the user document and `/protected`. Each call with
    /// `true` makes a new nonce, so the proofs made with the previous one are refused once.
    /// - Parameter on: Whether proofs must carry the nonce (default `true`).
    public func requireDPoPNonce(_ on: Bool = true) {
        let nonce = on ? SimulatorLedger.token("nonce") : nil
        core.ledger.withLock { $0.senderConstraint.nonce = nonce }
    }

    /// The RFC 7638 thumbprint of the DPoP key a token (access or refresh) is bound to, or `nil` for a bearer
    /// token or a token the simulator did not issue.
    /// - Parameter token: The token.
    /// - Returns: The key's thumbprint (the `jkt`).
    public func dpopKeyThumbprint(boundTo token: String) -> String? {
        core.ledger.withLock { $0.senderConstraint.bindings[token] }
    }

    /// The RFC 7638 thumbprint of the public key in a DPoP proof's `jwk` header, or `nil` when the text is not a
    /// proof with a P-256 key; the signature is not checked.
    /// - Parameter proof: A `DPoP` header's value (e.g. of a recorded request).
    /// - Returns: The key's thumbprint.
    public static func dpopKeyThumbprint(ofProof proof: String) -> String? {
        guard let encoded = proof.split(separator: ".").first, let bytes = Base64URL.decode(String(encoded)),
            let header = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any],
            let jwk = header["jwk"] as? [String: Any], let x = jwk["x"] as? String, let y = jwk["y"] as? String
        else { return nil }
        return DPoPProofSignature.thumbprint(x: x, y: y)
    }

    /// Makes the authorize endpoint refuse authorization requests that were not pushed (an `invalid_request`
    /// callback), and the discovery document say `require_pushed_authorization_requests: true`; or stops.
    /// A client reads the discovery document once, so set it before the client's first request.
    /// - Parameter on: Whether pushing is required (default `true`).
    public func requirePushedAuthorization(_ on: Bool = true) {
        core.ledger.withLock { $0.senderConstraint.requiresPushedAuthorization = on }
    }

    /// Sets the `expires_in` of the request URIs pushed from now on (60 seconds unless set). A request URI opened
    /// after its lifetime gets an `invalid_request_uri` callback.
    /// - Parameter seconds: The lifetime in seconds.
    public func setPushedRequestLifetime(_ seconds: Int) {
        core.ledger.withLock { $0.senderConstraint.pushedRequestLifetime = max(0, seconds) }
    }

    /// Expires every request URI pushed so far, whatever its `expires_in` said: opening one gets an
    /// `invalid_request_uri` callback, as when the user takes too long to open the browser.
    public func expirePushedRequests() {
        core.expirePushedRequests()
    }
}
