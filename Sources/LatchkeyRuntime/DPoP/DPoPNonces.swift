import Foundation
import LatchkeyPlatform

/// The last `DPoP-Nonce` each server gave (RFC 9449 §8, §9), by origin (`scheme://host:port`) and role: an
/// authorization server's nonce (§8, for token requests) and a resource server's (§9, for requests that carry
/// an access token) are kept apart, so an authorization server and a resource server (or the user-info endpoint)
/// that share an origin and each announce their own nonce do not overwrite each other's. The next proof to that
/// server in that role carries it. Bounded: a client talks to a handful of servers.
final class DPoPNonces: Sendable {
    /// Which of RFC 9449's servers a request goes to.
    enum Role: Sendable {
        /// The authorization server (§8): token requests, which carry no access token.
        case authorization
        /// A resource server (§9): requests that carry an access token (`ath` in the proof).
        case resource

        /// The role of a request: resource when it carries an access token.
        init(carriesAccessToken: Bool) {
            self = carriesAccessToken ? .resource : .authorization
        }
    }

    private static let maximumServers = 32
    private static let maximumNonceLength = 1024
    private let nonces = Locked<[String: String]>([:])

    /// The nonce to send to a URL's server in a role, if it gave one.
    func nonce(for url: URL, role: Role) -> String? {
        let key = Self.key(url, role)
        return nonces.withLock { $0[key] }
    }

    /// Remembers a server's nonce, when it is one: RFC 9449 §8.1's `1*NQCHAR` (printable ASCII but space, `"` and
    /// `\`), at most 1,024 bytes. Anything else is ignored, and the nonce remembered before it stays.
    /// - Returns: Whether the nonce was remembered.
    @discardableResult
    func remember(_ nonce: String, for url: URL, role: Role) -> Bool {
        guard Self.isNonce(nonce) else { return false }
        let key = Self.key(url, role)
        nonces.withLock { table in
            if table[key] == nil, table.count >= Self.maximumServers { table.removeAll() }
            table[key] = nonce
        }
        return true
    }

    /// Whether text is a nonce as RFC 9449 §8.1 writes it (`nonce = 1*NQCHAR`, `NQCHAR = %x21 / %x23-5B /
    /// %x5D-7E`), within the length this client keeps.
    static func isNonce(_ text: String) -> Bool {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= maximumNonceLength else { return false }
        return bytes.allSatisfy { byte in
            byte == 0x21 || (0x23...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
        }
    }

    private static func key(_ url: URL, _ role: Role) -> String {
        (role == .authorization ? "authorization " : "resource ") + origin(of: url)
    }

    static func origin(of url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? "")" + (url.port.map { ":\($0)" } ?? "")
    }
}
