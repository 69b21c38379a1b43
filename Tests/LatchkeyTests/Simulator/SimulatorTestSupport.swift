import Foundation
import Latchkey
import LatchkeyTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The generated clients' specs, by descriptor name.
enum GeneratedProviders {
    static let all: [String: ProviderSpec] = [
        "oidc": OidcClient.provider,
        "supabase": SupabaseClient.provider,
        "base-idp": BaseIdPClient.provider,
        "sap-cdc": SAPCustomerDataCloudClient.provider,
    ]
}

/// Sends a request and returns the status and the JSON object of the answer.
func simpleRequest(
    _ url: URL, method: String = "GET", bearer: String? = nil, form: [String: String]? = nil
) async throws -> (status: Int, json: [String: Any]) {
    var request = URLRequest(url: url)
    request.httpMethod = method
    if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
    if let form {
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        request.httpBody = Data(
            form.sorted { $0.key < $1.key }.map {
                "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.value)"
            }.joined(separator: "&").utf8)
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
}

extension URL {
    /// The URL with one more query item.
    func addingQuery(_ name: String, _ value: String) -> URL {
        var components = URLComponents(url: self, resolvingAgainstBaseURL: false)!
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: name, value: value)]
        return components.url!
    }
}
