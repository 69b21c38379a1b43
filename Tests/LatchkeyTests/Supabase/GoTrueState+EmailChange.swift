import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// A secure email change (verify.go's `emailChangeVerify`): codes go to the current and the new address; the
/// first one verified answers `{"msg": …}` and no session, the second changes the address and signs in.
extension GoTrueState {
    /// The answer to a verified `email_change` code of a change in progress, or `nil` when it is none.
    mutating func secureEmailChange(verified otp: OTP) -> TestResponse? {
        guard otp.type == "email_change",
            let change = calls.emailChanges.firstIndex(where: { $0.hashes.contains(otp.tokenHash) })
        else { return nil }
        let hashes = calls.emailChanges[change].hashes
        let pending = otps.contains { hashes.contains($0.tokenHash) && !$0.used }
        if pending {
            return .json([
                "msg": "Confirmation link accepted. Please proceed to confirm link sent to the other email"
            ])
        }
        let userID = calls.emailChanges[change].userID
        let user = users.firstIndex { $0.id == userID }!
        users[user].email = calls.emailChanges[change].newEmail
        users[user].updatedAt = now
        calls.emailChanges.remove(at: change)
        return .json(newSession(for: userID))
    }

    /// Starts a secure email change for a user: one `email_change` code to each address.
    mutating func startSecureEmailChange(email: String, to newEmail: String) {
        guard let index = users.firstIndex(where: { $0.email == email }) else { return }
        var hashes: [String] = []
        for address in [email, newEmail] {
            let token = String(format: "%06d", Int.random(in: 0..<1_000_000))
            let hash = GoTrueServer.sha256Hex(address + token)
            otps.append(
                OTP(email: address, type: "email_change", token: token, tokenHash: hash, used: false, flowStateID: nil))
            outbox.append(
                GoTrueServer.Email(
                    to: address, type: "email_change", token: token, tokenHash: hash,
                    link: base.appendingPathComponent("auth/v1/verify")))
            hashes.append(hash)
        }
        calls.emailChanges.append((users[index].id, newEmail, hashes))
    }
}

extension GoTrueServer {
    /// Starts a secure email change (as `PUT /user {email}` does with secure email change on): one code to
    /// `email`, one to `newEmail`, in ``outbox``.
    func startSecureEmailChange(email: String, to newEmail: String) {
        core.state.withLock { $0.startSecureEmailChange(email: email, to: newEmail) }
    }
}
