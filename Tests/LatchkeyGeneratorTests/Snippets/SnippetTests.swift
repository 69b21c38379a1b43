import Testing

/// One snippet per generator feature: the descriptor fragment in, the generated fragment out.
@Suite struct SnippetTests {
    @Test func passwordFlowWithItsRequest() throws {
        try Snippet.expect(
            #"""
            "inputs": { "baseURL": { "type": "url" } },
            "requests": {
              "token": {
                "method": "POST", "url": "{baseURL}/token", "encoding": "form",
                "body": { "grant_type": "password", "username": "{username}", "password": "{password}" },
                "clientAuthentication": "basic", "response": "session"
              }
            },
            "flows": { "password": { "request": "token", "identifierLabel": "username" } }
            """#,
            generates: #"""
                    "token": LatchkeyRuntime.RequestSpec(
                        method: "POST",
                        url: .init(segments: [.variable("baseURL"), .literal("/token")]),
                        encoding: .form,
                        body: [
                            .init("grant_type", .string(.literal("password"))),
                            .init("username", .string(.variable("username"))),
                            .init("password", .string(.variable("password"))),
                        ],
                        clientAuthentication: .basic,
                        response: .session
                    )
                ],
                flows: LatchkeyRuntime.FlowSet(
                    password: LatchkeyRuntime.PasswordFlowSpec(request: "token", identifierLabel: "username")
                ),
                """#)
    }

    @Test func errorMappingWithADeclaredCode() throws {
        try Snippet.expect(
            #"""
            "errors": {
              "codeFields": ["/error_code", "/error"],
              "codes": { "account_locked": { "kind": "rejected", "description": "Too many attempts." } },
              "map": [
                { "providerCode": "invalid_grant", "code": "invalid_credentials" },
                { "status": 423, "code": "account_locked" },
                { "providerCodePrefix": "over_", "code": "rate_limited" }
              ],
              "callback": [{ "providerCode": "access_denied", "code": "login_cancelled" }]
            }
            """#,
            generates: #"""
                errors: LatchkeyRuntime.ErrorMappingSpec(
                    codePointers: ["/error_code", "/error"],
                    messagePointers: ["/error_description"],
                    rules: [
                        .init(providerCode: "invalid_grant", code: "invalid_credentials", kind: .rejected),
                        .init(status: 423, code: "account_locked", kind: .rejected),
                        .init(providerCodePrefix: "over_", code: "rate_limited", kind: .transport),
                    ],
                    callbackRules: [.init(providerCode: "access_denied", code: "login_cancelled", kind: .cancelled)]
                ),
                """#)
    }

    @Test func redirectRule() throws {
        try Snippet.expect(
            #"""
            "callback": {
              "location": "fragment", "iss": "iss", "errorCode": "error_code",
              "redirectKinds": ["loopback", "custom_scheme"]
            }
            """#,
            generates: #"""
                callback: LatchkeyRuntime.CallbackSpec(
                    location: .fragment,
                    codeParameter: "code",
                    stateParameter: "state",
                    issuerParameter: "iss",
                    errorParameter: "error",
                    errorCodeParameter: "error_code",
                    errorDescriptionParameter: "error_description",
                    allowedRedirectKinds: [.loopback, .customScheme]
                ),
                """#)
    }

    @Test func templateWithVariablesFallbackAndEscapedBraces() throws {
        try Snippet.expect(
            #"""
            "inputs": {
              "tenant": {},
              "issuer": { "type": "url", "required": false }
            },
            "variables": { "base": "https://login.example.com/{tenant}/v2" },
            "requests": {
              "keys": { "method": "GET", "url": "{issuer ?? base}/keys?shape={{json}}", "response": "document" }
            }
            """#,
            generates: #"""
                variables: [
                    .init(
                        "base",
                        .string(
                            .init(
                                segments: [
                                    .literal("https://login.example.com/"),
                                    .variable("tenant"),
                                    .literal("/v2"),
                                ]
                            )
                        )
                    )
                ],
                requests: [
                    "keys": LatchkeyRuntime.RequestSpec(
                        method: "GET",
                        url: .init(segments: [.firstOf(["issuer", "base"]), .literal("/keys?shape={json}")]),
                        response: .document
                    )
                ],
                """#)
    }

    @Test func actionWithTypedParameters() throws {
        try Snippet.expect(
            #"""
            "requests": {
              "recover": {
                "method": "POST", "url": "https://example.com/recover", "encoding": "json",
                "body": { "email": "{email}", "create": "{create}" }
              }
            },
            "actions": {
              "resetPassword": {
                "request": "recover",
                "parameters": { "email": { "type": "string" }, "create": { "type": "bool", "optional": true } }
              }
            }
            """#,
            generates: #"""
                actions: [
                    .init(
                        name: "resetPassword",
                        request: "recover",
                        parameters: [.init(name: "email"), .init(name: "create", type: .bool, isOptional: true)]
                    )
                ],
                """#)
        try Snippet.expect(
            #"""
            "requests": {
              "recover": { "method": "POST", "url": "https://example.com/recover", "encoding": "json",
                           "body": { "create": "{create}" } }
            },
            "actions": { "resetPassword": { "request": "recover", "parameters": { "create": { "type": "bool" } } } }
            """#,
            generates: #"""
                public func resetPassword(
                    create: Swift.Bool
                ) async throws(LatchkeyRuntime.AuthError) -> LatchkeyRuntime.ActionResult {
                    var arguments: [Swift.String: LatchkeyRuntime.ActionArgument] = [:]
                    arguments["create"] = .bool(create)
                    return try await client.perform(action: "resetPassword", arguments: arguments)
                }
                """#)
    }

    @Test func pasetoTokenConfiguration() throws {
        try Snippet.expect(
            #"""
            "tokens": {
              "accessToken": "paseto_v4_public",
              "accessTokenKeys": "https://example.com/paseto-keys",
              "implicitAssertion": "snippet-v1",
              "requiredClaims": ["sub"]
            }
            """#,
            generates: #"""
                tokens: LatchkeyRuntime.TokenSpec(
                    accessTokenFormat: .pasetoV4Public,
                    accessTokenKeysURL: .literal("https://example.com/paseto-keys"),
                    implicitAssertion: "snippet-v1",
                    requiredClaims: ["sub"]
                )
                """#)
    }

    @Test func hostileStringsAreEscapedLiteralsNeverCode() throws {
        try Snippet.expect(
            #"""
            "requests": {
              "evil": {
                "method": "GET", "response": "document",
                "url": "https://example.com/\"#\\(x)\"\"\"/{{literal}}",
                "headers": { "X-Evil\"#": "\"); injected(); (\"" }
              }
            }
            """#,
            generates: #"""
                "evil": LatchkeyRuntime.RequestSpec(
                    method: "GET",
                    url: .literal("https://example.com/\"#\\(x)\"\"\"/{literal}"),
                    headers: [.init("X-Evil\"#", .string(.literal("\"); injected(); (\"")))],
                    response: .document
                )
                """#)
    }
}
