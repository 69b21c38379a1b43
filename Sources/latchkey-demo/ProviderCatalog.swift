import Latchkey

/// The generated clients the demo knows, by descriptor name.
enum ProviderCatalog {
    static let specs: [(name: String, spec: ProviderSpec)] = [
        ("oidc", OidcClient.provider),
        ("supabase", SupabaseClient.provider),
        ("base-idp", BaseIdPClient.provider),
        ("sap-cdc", SAPCustomerDataCloudClient.provider),
    ]

    static var names: [String] { specs.map(\.name) }

    static func spec(named name: String) -> ProviderSpec? {
        specs.first { $0.name == name.lowercased() }?.spec
    }
}
