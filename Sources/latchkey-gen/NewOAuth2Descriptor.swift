/// The descriptor `latchkey-gen new NAME --oauth2` writes: plain OAuth 2.0 (no OpenID discovery, no ID token),
/// browser sign-in with PKCE, refresh and a user document at fixed URLs the author replaces.
enum NewOAuth2Descriptor {
    static func text(_ header: NewDescriptor.Header) -> String {
        """
        {
        \(header.text)
          "description": "A plain OAuth 2.0 provider with fixed endpoints. Replace every example.com URL, the scopes and the user pointers with what the provider documents; remove code_challenge and code_challenge_method if it does not support PKCE, and set clientSecret if its token endpoint always needs the secret.",
          "documentation": "https://provider.example.com/docs/oauth",
          "sources": ["https://provider.example.com/docs/oauth"],
          "inputs": {
            "clientID": {
              "description": "The app's client id, registered with the provider."
            }
          },
          "requests": {
            "exchangeCode": {
              "method": "POST",
              "url": "https://provider.example.com/oauth/token",
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
              "url": "https://provider.example.com/oauth/token",
              "encoding": "form",
              "body": { "grant_type": "refresh_token", "refresh_token": "{refresh_token}", "client_id": "{clientID}" },
              "response": "session"
            },
            "user": {
              "method": "GET",
              "url": "https://api.provider.example.com/me",
              "authorization": "accessToken",
              "response": "user"
            }
          },
          "flows": {
            "authorizationCode": {
              "authorizeURL": "https://provider.example.com/oauth/authorize",
              "query": {
                "response_type": "code",
                "client_id": "{clientID}",
                "redirect_uri": "{redirect_uri}",
                "scope": "{scope}",
                "state": "{state}",
                "code_challenge": "{code_challenge}",
                "code_challenge_method": "S256"
              },
              "exchange": "exchangeCode",
              "scopes": ["read"],
              "fetchUser": true
            },
            "refresh": { "request": "refreshToken" },
            "signOut": {},
            "userInfo": { "request": "user" }
          },
          "session": { "idToken": null },
          "user": { "id": "/id", "email": "/email", "name": "/name" },
          "tokens": { "accessToken": "opaque" }
        }

        """
    }
}
