import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

/// An `OktaClient` (its descriptor declares `"dpop": "optional"` and `"pushedAuthorization"`) on a simulator,
/// with DPoP and pushed authorization turned on as asked.
func oktaSenderConstrainedClient(
    _ simulator: ProviderSimulator, usesDPoP: Bool = true, pushes: Bool = false
) throws -> OktaClient {
    var options = AuthClientOptions(store: InMemorySessionStore())
    options.usesDPoP = usesDPoP
    options.pushesAuthorizationRequests = pushes
    return try OktaClient(
        orgURL: simulator.issuer, authorizationServerID: simulator.configurationValues["authorizationServerID"],
        clientID: "demo-client",
        redirectURI: ConformanceHarness.redirectURI(for: OktaClient.provider), options: options)
}

/// The claims of a DPoP proof (its signature unchecked: the simulator checked it).
func dpopClaims(_ proof: String?) throws -> [String: Any] {
    let parts = try #require(proof?.split(separator: ".").map(String.init))
    #expect(parts.count == 3)
    let bytes = try #require(Base64URL.decode(parts[1]))
    return try #require((try JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any])
}

/// The `ath` a proof presenting `token` must carry: the base64url SHA-256 of the token.
func accessTokenHash(_ token: String) -> String {
    Base64URL.encode(SHA2Hash.sha256(Array(token.utf8)))
}

/// A `GET` of the simulator's `/protected` with exactly these headers, through the simulator's transport.
func protectedRequest(_ simulator: ProviderSimulator, headers: [(name: String, value: String)]) async throws
    -> TransportResponse
{
    try await simulator.transport.send(TransportRequest(method: "GET", url: simulator.protectedURL, headers: headers))
}

/// The simulator's OpenID discovery document, as a client reads it.
func discoveryDocument(_ simulator: ProviderSimulator) async throws -> [String: Any] {
    let url = try #require(URL(string: simulator.expectedIssuer + "/.well-known/openid-configuration"))
    let response = try await simpleRequest(url)
    #expect(response.status == 200)
    return response.json
}
