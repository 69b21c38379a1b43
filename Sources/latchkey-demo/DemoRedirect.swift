@_spi(Generated) import LatchkeyRuntime

import struct Foundation.URL

/// How the demo configures a catalog provider on the simulator.
enum DemoRedirect {
    /// A redirect URI of a kind the provider accepts: its own scheme, else https, else a loopback URI without a
    /// port (the loopback server then takes an ephemeral one).
    static func uri(for spec: ProviderSpec) -> URL {
        let kinds = spec.callback.allowedRedirectKinds
        if kinds.contains(.customScheme) { return URL(string: "dev.latchkey.demo://callback")! }
        if kinds.contains(.https) { return URL(string: "https://demo.latchkey.dev/callback")! }
        return URL(string: "http://127.0.0.1/callback")!
    }

    /// Whether any request authenticates the client with a secret (the simulator then stands in for the
    /// server-side code that would hold it).
    static func needsSecret(_ spec: ProviderSpec) -> Bool {
        spec.clientSecret != nil || spec.requests.values.contains { $0.clientAuthentication != .none }
    }
}
