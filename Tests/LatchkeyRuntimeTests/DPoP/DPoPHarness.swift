import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyVocabulary

/// A provider whose token endpoint, resource endpoint and pushed authorization endpoint are a
/// ``DPoPTestServer``, and clients of it over a shared store.
struct DPoPHarness {
    let server: DPoPTestServer
    let store: InMemorySessionStore
    let logs = Locked<[String]>([])

    init(_ settings: DPoPServerCore.Settings = DPoPServerCore.Settings()) throws {
        server = try DPoPTestServer(settings)
        store = InMemorySessionStore()
    }

    /// The provider: password, authorization code (loopback), refresh; DPoP and PAR as given.
    static func spec(
        dpop: DPoPUse = .required, pushed: PushedAuthorizationUse? = nil, discovers: Bool = false
    ) -> ProviderSpec {
        let t = AcmeSpec.template
        let s = AcmeSpec.string
        return ProviderSpec(
            name: "dpoptest", displayName: "DPoP Test",
            inputs: [InputSpec(name: "baseURL", kind: .url, trimsTrailingSlash: true), InputSpec(name: "clientID")],
            discovery: discovers ? .openID(issuer: t("{baseURL}")) : nil,
            requests: [
                "password": RequestSpec(
                    method: "POST", url: t("{baseURL}/token"), encoding: .form,
                    body: [
                        ParameterSpec("grant_type", s("password")), ParameterSpec("username", s("{username}")),
                        ParameterSpec("password", s("{password}")), ParameterSpec("client_id", s("{clientID}")),
                    ], response: .session),
                "exchange": RequestSpec(
                    method: "POST", url: t("{baseURL}/token"), encoding: .form,
                    body: [
                        ParameterSpec("grant_type", s("authorization_code")), ParameterSpec("code", s("{code}")),
                        ParameterSpec("code_verifier", s("{code_verifier}")),
                        ParameterSpec("redirect_uri", s("{redirect_uri}")), ParameterSpec("client_id", s("{clientID}")),
                    ], response: .session),
                "refresh": RequestSpec(
                    method: "POST", url: t("{baseURL}/token"), encoding: .form,
                    body: [
                        ParameterSpec("grant_type", s("refresh_token")),
                        ParameterSpec("refresh_token", s("{refresh_token}")),
                        ParameterSpec("client_id", s("{clientID}")),
                    ], response: .session),
                "device": RequestSpec(
                    method: "POST", url: t("{baseURL}/device"), encoding: .form,
                    body: [ParameterSpec("client_id", s("{clientID}"))], response: .document),
                "deviceToken": RequestSpec(
                    method: "POST", url: t("{baseURL}/token"), encoding: .form,
                    body: [
                        ParameterSpec("grant_type", s("urn:ietf:params:oauth:grant-type:device_code")),
                        ParameterSpec("device_code", s("{device_code}")), ParameterSpec("client_id", s("{clientID}")),
                    ], response: .session),
                "revoke": RequestSpec(
                    method: "POST", url: t("{baseURL}/revoke"), encoding: .form,
                    body: [
                        ParameterSpec("token", s("{refresh_token}")), ParameterSpec("client_id", s("{clientID}")),
                    ]),
                "profile": RequestSpec(
                    method: "GET", url: t("{baseURL}/resource"), authorization: .accessToken, response: .document),
            ],
            flows: FlowSet(
                password: PasswordFlowSpec(request: "password"),
                authorizationCode: AuthorizationCodeFlowSpec(
                    authorizeURL: t("{baseURL}/authorize"),
                    authorizeQuery: [
                        ParameterSpec("response_type", s("code")), ParameterSpec("client_id", s("{clientID}")),
                        ParameterSpec("redirect_uri", s("{redirect_uri}")), ParameterSpec("scope", s("{scope}")),
                        ParameterSpec("state", s("{state}")), ParameterSpec("code_challenge", s("{code_challenge}")),
                        ParameterSpec("code_challenge_method", s("{code_challenge_method}")),
                    ], exchangeRequest: "exchange", defaultScopes: ["openid"]),
                refresh: RefreshFlowSpec(request: "refresh"), signOut: SignOutFlowSpec(request: "revoke"),
                deviceCode: DeviceCodeFlowSpec(authorizationRequest: "device", tokenRequest: "deviceToken")),
            actions: [ActionSpec(name: "profile", request: "profile", parameters: [])],
            callback: CallbackSpec(allowedRedirectKinds: [.customScheme, .loopback]),
            session: SessionMapping(user: "/user"), user: UserMapping(id: "/id"),
            senderConstraint: SenderConstraintSpec(
                dpop: dpop,
                pushedAuthorization: pushed.map { PushedAuthorizationSpec(url: t("{baseURL}/par"), use: $0) }))
    }

    /// A client of the server over the shared store (another one is a relaunch).
    func client(
        dpop: DPoPUse = .required, pushed: PushedAuthorizationUse? = nil, usesDPoP: Bool = false,
        pushes: Bool = false, discovers: Bool = false, transport: (any HTTPTransport)? = nil
    ) throws -> AuthClient {
        var options = AuthClientOptions(
            store: store, logger: { [logs] record in logs.withLock { $0.append(record.message) } },
            environment: { _ in nil }, sleep: { _ in })
        options.usesDPoP = usesDPoP
        options.pushesAuthorizationRequests = pushes
        if let transport { options.transport = transport }
        return try AuthClient(
            provider: Self.spec(dpop: dpop, pushed: pushed, discovers: discovers),
            configuration: ProviderConfiguration(
                values: ["baseURL": server.baseURL.absoluteString, "clientID": "dpop-app"]),
            options: options)
    }

    /// A resource request.
    func resource(_ query: String = "") -> TransportRequest {
        TransportRequest(method: "GET", url: server.server.url("/resource" + query))
    }
}

extension TransportResponse {
    /// The JSON body as a dictionary.
    var jsonObject: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
}
