@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime

/// The generated clients the demo knows, by descriptor name.
enum ProviderCatalog {
    /// Every catalog descriptor that signs someone in: the simulator serves any of them (a server-side client,
    /// Supabase's admin API, has no sign-in to show).
    static let specs: [(name: String, spec: ProviderSpec)] = LatchkeyProviders.all.filter { $0.audience == .app }
        .map { ($0.name, $0) }.sorted { $0.name < $1.name }

    static var names: [String] { specs.map(\.name) }

    static func spec(named name: String) -> ProviderSpec? {
        specs.first { $0.name == name.lowercased() }?.spec
    }

    /// Every generated provider whose device flow a public client can run (no client secret), by name.
    static var deviceNames: [String] {
        LatchkeyProviders.all.filter(hasPublicDeviceFlow).map(\.name).sorted()
    }

    /// A generated provider whose device flow a public client can run.
    static func deviceSpec(named name: String) -> ProviderSpec? {
        LatchkeyProviders.all.first { $0.name == name.lowercased() && hasPublicDeviceFlow($0) }
    }

    /// Whether the provider declares a device flow whose requests need no client secret.
    static func hasPublicDeviceFlow(_ spec: ProviderSpec) -> Bool {
        guard let flow = spec.flows.deviceCode else { return false }
        return [flow.authorizationRequest, flow.tokenRequest].allSatisfy {
            spec.requests[$0]?.clientAuthentication.isOptional ?? true
        }
    }
}
