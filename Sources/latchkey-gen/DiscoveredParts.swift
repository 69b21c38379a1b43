/// The parts of a new OpenID descriptor that only a saved discovery document justifies: revocation, the
/// device flow, RP-initiated logout and ID-token validation, each when the document publishes it.
enum DiscoveredParts {
    /// Requests appended after `userInfo` (each starting with `,`).
    static func requests(_ facts: DiscoveryFacts) -> String {
        var text = ""
        if facts.revocation {
            text += """
                ,
                    "revokeToken": {
                      "method": "POST",
                      "url": "{discovered.revocation_endpoint}",
                      "encoding": "form",
                      "body": { "token": "{refresh_token}", "token_type_hint": "refresh_token", "client_id": "{clientID}" }
                    }
                """
        }
        if facts.device {
            text += """
                ,
                    "deviceAuthorization": {
                      "method": "POST",
                      "url": "{discovered.device_authorization_endpoint}",
                      "encoding": "form",
                      "body": { "client_id": "{clientID}", "scope": "{scope}" },
                      "response": "document"
                    },
                    "deviceToken": {
                      "method": "POST",
                      "url": "{discovered.token_endpoint}",
                      "encoding": "form",
                      "body": {
                        "grant_type": "urn:ietf:params:oauth:grant-type:device_code",
                        "device_code": "{device_code}",
                        "client_id": "{clientID}"
                      },
                      "response": "session"
                    }
                """
        }
        return text
    }

    /// Flows appended after `userInfo` (each starting with `,`).
    static func flows(_ facts: DiscoveryFacts) -> String {
        var text = ""
        if facts.device {
            text += """
                ,
                    "deviceCode": { "authorization": "deviceAuthorization", "token": "deviceToken" }
                """
        }
        if facts.endSession {
            text += """
                ,
                    "endSession": {
                      "url": "{discovered.end_session_endpoint}",
                      "query": {
                        "id_token_hint": "{id_token}",
                        "post_logout_redirect_uri": "{post_logout_redirect_uri}",
                        "client_id": "{clientID}",
                        "state": "{state}"
                      }
                    }
                """
        }
        return text
    }

    /// The `tokens` object: ID tokens validated against the discovered keys when the document publishes them
    /// with an algorithm the runtime verifies.
    static func tokens(_ facts: DiscoveryFacts) -> String {
        guard facts.validatesIDTokens else { return #"{ "accessToken": "opaque" }"# }
        return
            #"{ "accessToken": "opaque", "validateIDToken": true, "jwks": "{discovered.jwks_uri}", "issuer": "{issuer}" }"#
    }
}
