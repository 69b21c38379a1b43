import Foundation

/// What the simulator remembers for DPoP (RFC 9449) and pushed authorization requests (RFC 9126).
struct SimulatorSenderConstraintState: Sendable {
    /// A pushed authorization request, by its `request_uri`.
    struct PushedRequest: Sendable {
        /// The pushed parameters (the authorization request's).
        var parameters: [String: String]
        /// When the `request_uri` stops being accepted.
        var expiresAt: Date
    }

    /// Token (access or refresh) → the thumbprint of the DPoP key it is bound to.
    var bindings: [String: String] = [:]
    /// The `jti` of every accepted proof, with its `iat`, to refuse a replayed proof.
    var seenProofIDs: [String: Double] = [:]
    /// The nonce every proof must carry, when the simulator demands one.
    var nonce: String?
    /// The pushed authorization requests not yet used.
    var pushedRequests: [String: PushedRequest] = [:]
    /// The `expires_in` of the request URIs pushed from now on, in seconds.
    var pushedRequestLifetime = 60
    /// Whether the authorize endpoint refuses an authorization request that was not pushed.
    var requiresPushedAuthorization = false

    /// The most proof ids remembered before those outside the `iat` window are forgotten.
    static let proofIDsKept = 1000

    /// Remembers a proof's `jti`; `false` when it was seen before (a replay).
    mutating func remember(_ proof: SimulatorDPoPProof, now: Date) -> Bool {
        if seenProofIDs.count >= Self.proofIDsKept {
            // A proof outside the window is refused for its `iat` anyway, so its id need not be kept.
            let oldest = now.timeIntervalSince1970 - 2 * SimulatorDPoPProof.issuedAtWindow
            seenProofIDs = seenProofIDs.filter { $0.value >= oldest }
        }
        guard seenProofIDs[proof.jti] == nil else { return false }
        seenProofIDs[proof.jti] = proof.iat
        return true
    }
}
