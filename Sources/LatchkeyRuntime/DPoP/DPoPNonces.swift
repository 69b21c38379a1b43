import Foundation
import LatchkeyPlatform

/// The last `DPoP-Nonce` each server gave (RFC 9449 §8, §9), by origin (`scheme://host:port`): the next proof
/// to that server carries it. Bounded: a client talks to a handful of servers.
final class DPoPNonces: Sendable {
    private static let maximumOrigins = 32
    private static let maximumNonceLength = 1024
    private let nonces = Locked<[String: String]>([:])

    /// The nonce to send to a URL's server, if it gave one.
    func nonce(for url: URL) -> String? {
        let origin = Self.origin(of: url)
        return nonces.withLock { $0[origin] }
    }

    /// Remembers a server's nonce; ignores an empty or oversized one.
    func remember(_ nonce: String, for url: URL) {
        guard !nonce.isEmpty, nonce.utf8.count <= Self.maximumNonceLength else { return }
        let origin = Self.origin(of: url)
        nonces.withLock { table in
            if table[origin] == nil, table.count >= Self.maximumOrigins { table.removeAll() }
            table[origin] = nonce
        }
    }

    static func origin(of url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? "")" + (url.port.map { ":\($0)" } ?? "")
    }
}
