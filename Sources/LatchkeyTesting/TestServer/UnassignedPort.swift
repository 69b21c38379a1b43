import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime

/// Ports for tests that must name a loopback port before anything listens on it (a redirect URI registered
/// with its port, bound later by the sign-in under test).
///
/// A port the system picked for a socket that was then closed is no such port: bind(0) and connect() draw from
/// the ephemeral range (Linux 32768-60999, Darwin 49152-65535), so another test's server or connection can
/// take it before the sign-in binds it, and the sign-in fails with "port in use" — more often the busier the
/// machine. These ports come from below that range, where the system never assigns one by itself, and each is
/// handed out once per process, so two tests running at once never share one.
package enum UnassignedPort {
    /// Where the ports come from.
    private static let range = 20_000..<32_768
    private static let next = Locked(Int.random(in: range))

    /// A port nothing listens on now, below the ephemeral ranges, not handed out before in this process.
    /// - Parameter address: The loopback address it must be free on.
    /// - Returns: The port.
    /// - Throws: ``TestServerError`` when every port of the range is taken.
    package static func take(on address: LoopbackAddress = .ipv4) throws(TestServerError) -> Int {
        for _ in 0..<range.count {
            let port = next.withLock { next in
                let port = next
                next = next + 1 < range.upperBound ? next + 1 : range.lowerBound
                return port
            }
            guard let socket = try? ListeningSocket(address: address, port: port) else { continue }
            socket.close()
            return port
        }
        throw TestServerError(description: "no free loopback port in \(range.lowerBound)-\(range.upperBound - 1)")
    }
}
