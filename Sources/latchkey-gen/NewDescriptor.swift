import LatchkeyDescriptor

/// The descriptor `latchkey-gen new` writes: OpenID Connect with discovery, PKCE, refresh, user info.
enum NewDescriptor {
    /// The top of every new descriptor: `$schema` (when the schema is beside it), version, names.
    struct Header {
        var name: String
        var displayName: String
        var hasSchema: Bool

        var text: String {
            (hasSchema ? "  \"$schema\": \"./descriptor.schema.json\",\n" : "")
                + "  \"formatVersion\": 2,\n  \"name\": \(json(name)),\n  \"displayName\": \(json(displayName)),"
        }
    }

    static func text(_ header: Header, discovery: DiscoveryFacts) -> String {
        let issuerDefault = discovery.issuer.map { ",\n      \"default\": \(json($0))" } ?? ""
        let scopes = (discovery.scopes.isEmpty ? ["openid", "profile", "email"] : discovery.scopes).map(json)
            .joined(separator: ", ")
        return """
            {
            \(header.text)
              "description": "An OpenID Connect provider found by discovery. Edit this descriptor to match the provider's documentation.",
              "inputs": {
                "issuer": {
                  "type": "url",
                  "description": "The issuer URL; discovery reads {issuer}/.well-known/openid-configuration."\(issuerDefault)
                },
                "clientID": {
                  "description": "The public client's identifier, registered with the provider."
                }
              },
              "discovery": { "type": "openid", "issuer": "{issuer}" },
              "requests": {
                "exchangeCode": {
                  "method": "POST",
                  "url": "{discovered.token_endpoint}",
                  "encoding": "form",
                  "body": {
                    "grant_type": "authorization_code",
                    "code": "{code}",
                    "redirect_uri": "{redirect_uri}",
                    "client_id": "{clientID}",
                    "code_verifier": "{code_verifier}"
                  },
                  "response": "session"
                },
                "refreshToken": {
                  "method": "POST",
                  "url": "{discovered.token_endpoint}",
                  "encoding": "form",
                  "body": { "grant_type": "refresh_token", "refresh_token": "{refresh_token}", "client_id": "{clientID}" },
                  "response": "session"
                },
                "userInfo": {
                  "method": "GET",
                  "url": "{discovered.userinfo_endpoint}",
                  "authorization": "accessToken",
                  "response": "user"
                }\(DiscoveredParts.requests(discovery))
              },
              "flows": {
                "authorizationCode": {
                  "authorizeURL": "{discovered.authorization_endpoint}",
                  "query": {
                    "response_type": "code",
                    "client_id": "{clientID}",
                    "redirect_uri": "{redirect_uri}",
                    "scope": "{scope}",
                    "state": "{state}",
                    "nonce": "{nonce}"\(discovery.pkce ? pkceQuery : "")
                  },
                  "exchange": "exchangeCode",
                  "nonce": true,
                  "scopes": [\(scopes)],
                  "fetchUser": true
                },
                "refresh": { "request": "refreshToken" },
                "signOut": \(discovery.revocation ? #"{ "request": "revokeToken" }"# : "{}"),
                "userInfo": { "request": "userInfo" }\(DiscoveredParts.flows(discovery))
              },
              "tokens": \(DiscoveredParts.tokens(discovery))
            }

            """
    }

    /// The authorization query's PKCE members, after `nonce`.
    static let pkceQuery =
        ",\n        \"code_challenge\": \"{code_challenge}\",\n        \"code_challenge_method\": \"S256\""

    /// A JSON string literal.
    static func json(_ text: String) -> String { JSONStringLiteral.quoted(text) }
}
