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

    /// Remembers a server's nonce, when it is one: RFC 9449 §8.1's `1*NQCHAR` (printable ASCII but space, `"` and
    /// `\`), at most 1,024 bytes. Anything else is ignored, and the nonce remembered before it stays.
    /// - Returns: Whether the nonce was remembered.
    @discardableResult
    func remember(_ nonce: String, for url: URL) -> Bool {
        guard Self.isNonce(nonce) else { return false }
        let origin = Self.origin(of: url)
        nonces.withLock { table in
            if table[origin] == nil, table.count >= Self.maximumOrigins { table.removeAll() }
            table[origin] = nonce
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

    static func origin(of url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? "")" + (url.port.map { ":\($0)" } ?? "")
    }
}
