/// The loopback interface a local server binds: never a public one.
public enum LoopbackAddress: String, Sendable, Hashable, CaseIterable {
    /// `127.0.0.1`.
    case ipv4
    /// `[::1]`.
    case ipv6

    /// The host as it appears in a URL: `127.0.0.1` or `[::1]`.
    public var urlHost: String {
        switch self {
        case .ipv4: "127.0.0.1"
        case .ipv6: "[::1]"
        }
    }
}
