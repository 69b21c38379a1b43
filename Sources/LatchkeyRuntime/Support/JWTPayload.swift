import Foundation
import LatchkeyTokens

/// Reads the claims of a compact JWT without verifying it: for routing decisions only (a `sub` to
/// name a placeholder user, a `role` claim that marks a secret key), never for trust.
enum JWTPayload {
    /// The payload's claims, or `nil` when the text is not a three-part JWT with a JSON object payload.
    static func claims(of token: String) -> [String: JSON]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(String(parts[1])),
            let object = JSON(data: Data(bytes))?.object
        else { return nil }
        return object
    }
}
