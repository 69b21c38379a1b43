import Foundation
@_spi(Generated) import LatchkeyRuntime
import LatchkeyVocabulary

/// What the simulator learned from a ``ProviderSpec``: which path is which request, and which
/// parameter names carry which flow variables.
struct SimulatorRoutes: Sendable {
    /// What a request does.
    enum Role: Sendable, Hashable {
        case customDiscovery
        case exchange
        case refresh
        case password
        case user
        case deviceAuthorization
        case deviceToken
        case generic
    }

    /// One request of the descriptor, rendered against the simulator.
    struct Route: Sendable {
        var name: String
        var spec: RequestSpec
        var path: String
        var role: Role
        /// Constant parameters (query and body) that tell requests on the same path apart.
        var literals: [(name: String, value: String)]
        /// Flow variable → the parameter name that carries it.
        var carriers: [String: String]
    }

    /// The simulator's own endpoints, by discovery member name.
    static let endpointPaths: [String: String] = [
        "authorization_endpoint": "/authorize", "token_endpoint": "/token", "userinfo_endpoint": "/userinfo",
        "jwks_uri": "/jwks", "revocation_endpoint": "/revoke", "device_authorization_endpoint": "/device",
        "end_session_endpoint": "/logout", "introspection_endpoint": "/introspect",
        pushedAuthorizationMember: "/par",
    ]

    /// The discovery member of the pushed authorization request endpoint (RFC 9126 §5), advertised only when
    /// the descriptor declares `pushedAuthorization`.
    static let pushedAuthorizationMember = "pushed_authorization_request_endpoint"

    let base: URL
    let issuer: String
    let inputs: [String: String]
    var variables: [String: String] = [:]
    var routes: [Route] = []
    var discoveryPaths: [String] = []
    var customMembers: [DiscoverySpec.Member] = []
    var authorizePath: String?
    var authorizeCarriers: [String: String] = [:]
    var authorizeLiterals: [(name: String, value: String)] = []
    /// Where the simulator serves its JWKS: `/jwks` and whatever path the descriptor's `tokens.jwks`
    /// template renders to (`https://appleid.apple.com/auth/keys` → `/auth/keys`).
    var jwksPaths: Set<String> = ["/jwks"]
    /// Where the simulator serves its PASETO key document (the rendered `tokens.accessTokenKeys`).
    var accessTokenKeyPaths: Set<String> = []
    /// The `iss` of verifiable access tokens: the descriptor's token issuer, else the issuer.
    var accessTokenIssuer: String
    /// The discovery document's `{tenantid}` issuer, for descriptors with `tenant_placeholder` validation.
    var tenantIssuerTemplate: String?
    /// Where the simulator takes pushed authorization requests, when the descriptor declares them (the
    /// rendered `pushedAuthorization.url`; `/par` through discovery).
    var pushedAuthorizationPath: String?

    init(provider: ProviderSpec, base: URL, inputs: [String: String]) {
        self.base = base
        self.inputs = inputs
        var variables = inputs
        for derived in provider.variables {
            if case .string(let template) = derived.value, let value = template.render({ variables[$0] }) {
                variables[derived.name] = value
            }
        }
        // A URL that uses a capture (`{cloudid}`) is served at the path the simulator's captured value gives.
        for capture in provider.captures where variables[capture.name] == nil {
            variables[capture.name] = SimulatorCore.capturedValue(capture.name)
        }
        self.variables = variables
        let render: (ValueTemplate) -> String? = { template in
            template.render { name in
                variables[name]
                    ?? (name.hasPrefix("discovered.")
                        ? Self.discoveredValue(String(name.dropFirst(11)), base: base, issuer: nil, inputs: inputs)
                        : nil)
            }
        }
        var issuer = base.absoluteString
        if case .openID(let template, _) = provider.discovery, let value = render(template) {
            issuer = value
        } else if let template = provider.tokens.issuer, let value = render(template) {
            issuer = value
        } else if let value = inputs["issuer"] {
            issuer = value
        }
        self.issuer = issuer
        self.accessTokenIssuer = provider.tokens.issuer.flatMap(render) ?? issuer
        self.tenantIssuerTemplate = Self.tenantIssuerTemplate(provider: provider, issuer: issuer, inputs: inputs)

        if case .openID = provider.discovery {
            let issuerPath = Self.path(of: issuer) ?? ""
            let trimmed = issuerPath.hasSuffix("/") ? String(issuerPath.dropLast()) : issuerPath
            discoveryPaths = [
                trimmed + "/.well-known/openid-configuration", "/.well-known/oauth-authorization-server" + trimmed,
            ]
        }
        var roles: [String: Role] = [:]
        if case .custom(let request, let members) = provider.discovery {
            roles[request] = .customDiscovery
            customMembers = members
        }
        if let flow = provider.flows.authorizationCode { roles[flow.exchangeRequest] = .exchange }
        if let flow = provider.flows.refresh { roles[flow.request] = .refresh }
        if let flow = provider.flows.password { roles[flow.request] = .password }
        if let flow = provider.flows.userInfo { roles[flow.request] = .user }
        if let flow = provider.flows.deviceCode {
            roles[flow.authorizationRequest] = .deviceAuthorization
            roles[flow.tokenRequest] = .deviceToken
        }
        for name in provider.requests.keys.sorted() {
            guard let spec = provider.requests[name], let url = render(spec.url), let path = Self.path(of: url) else {
                continue
            }
            let (carriers, literals) = Self.analyze(spec.query + spec.body)
            let role = roles[name] ?? (spec.response == .user ? .user : .generic)
            routes.append(Route(name: name, spec: spec, path: path, role: role, literals: literals, carriers: carriers))
        }
        if let flow = provider.flows.authorizationCode, let url = render(flow.authorizeURL) {
            authorizePath = Self.path(of: url)
            (authorizeCarriers, authorizeLiterals) = Self.analyze(flow.authorizeQuery)
        }
        if let spec = provider.senderConstraint.pushedAuthorization, let url = render(spec.url) {
            pushedAuthorizationPath = Self.path(of: url)
        }
        if let template = provider.tokens.jwksURL, let url = render(template), let path = Self.path(of: url) {
            jwksPaths.insert(path)
        }
        if let template = provider.tokens.accessTokenKeysURL, let url = render(template), let path = Self.path(of: url)
        {
            accessTokenKeyPaths.insert(path)
        }
    }

    /// The route of a request by its descriptor name.
    func route(named name: String) -> Route? {
        routes.first { $0.name == name }
    }

    /// Whether a received request is the descriptor's request `name` (same method and path, and the
    /// route the simulator would pick for it).
    func request(_ request: SimulatorRequest, is name: String) -> Bool {
        route(for: request)?.name == name
    }

    /// A `{discovered.NAME}` value: the simulator's endpoint, the issuer, or a configuration value.
    static func discoveredValue(_ name: String, base: URL, issuer: String?, inputs: [String: String]) -> String {
        if let path = endpointPaths[name] { return base.absoluteString + path }
        if name == "issuer" { return issuer ?? base.absoluteString }
        if name.hasSuffix("_endpoint") || name.hasSuffix("_uri") { return base.absoluteString + "/endpoints/" + name }
        if name == "client_id" { return inputs["clientID"] ?? "demo-client" }
        return inputs[name] ?? "demo-client"
    }

    func discovered(_ name: String) -> String {
        Self.discoveredValue(name, base: base, issuer: issuer, inputs: inputs)
    }

    /// The normalized path of a URL string (no trailing slash except for the root).
    static func path(of url: String) -> String? {
        guard let components = URLComponents(string: url) else { return nil }
        return normalize(components.percentEncodedPath)
    }

    /// Percent-decodes a path and removes trailing slashes, so that a template's `@me` and a received
    /// `%40me` compare equal.
    static func normalize(_ path: String) -> String {
        var path = path.removingPercentEncoding ?? path
        if path.isEmpty { path = "/" }
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// Carriers (sole-variable parameters) and literals (constant parameters) of a parameter list.
    static func analyze(_ parameters: [ParameterSpec]) -> ([String: String], [(name: String, value: String)]) {
        var carriers: [String: String] = [:]
        var literals: [(name: String, value: String)] = []
        for parameter in parameters {
            switch parameter.value {
            case .string(let template):
                if let variable = template.soleVariable {
                    if carriers[variable] == nil { carriers[variable] = parameter.name }
                } else if template.variables.isEmpty {
                    literals.append((parameter.name, template.render { _ in nil } ?? ""))
                }
            case .bool(let value): literals.append((parameter.name, value ? "true" : "false"))
            case .number(let lexeme): literals.append((parameter.name, lexeme))
            default: break
            }
        }
        return (carriers, literals)
    }

    /// The request a received request is: same method and path, every constant parameter matching;
    /// the route with the most constants wins, then a flow's request (several requests may share a path and
    /// its constants, e.g. GoTrue's password grant for email and for phone), then the route that names the
    /// most of the received parameters.
    func route(for request: SimulatorRequest) -> Route? {
        let candidates = routes.filter {
            $0.spec.method.caseInsensitiveCompare(request.method) == .orderedSame && $0.path == request.path
        }
        let matching = candidates.filter { route in
            route.literals.allSatisfy { request.parameter($0.name) == $0.value }
        }
        func rank(_ route: Route) -> (Int, Int, Int) {
            let named = Set(route.carriers.values).union(route.literals.map(\.name))
            let covered = request.parameters.keys.filter(named.contains).count
            return (route.literals.count, route.role == .generic ? 0 : 1, covered)
        }
        return matching.max { rank($0) < rank($1) } ?? candidates.first
    }
}

/// A received request with its parameters (query, form body and JSON body) easy to read.
struct SimulatorRequest: Sendable {
    let recorded: RecordedRequest
    let method: String
    let path: String
    /// The parameters; for an authorization request opened by its `request_uri`, the pushed ones.
    var parameters: [String: String]

    init(_ recorded: RecordedRequest) {
        self.recorded = recorded
        self.method = recorded.method
        self.path = SimulatorRoutes.normalize(recorded.path)
        var parameters: [String: String] = [:]
        for item in recorded.queryItems where parameters[item.name] == nil { parameters[item.name] = item.value }
        let contentType = recorded.header("Content-Type")?.lowercased() ?? ""
        if contentType.range(of: "json") != nil, let object = recorded.jsonBody as? [String: Any] {
            for (name, value) in object where parameters[name] == nil {
                parameters[name] = value as? String ?? "\(value)"
            }
        } else if contentType.range(of: "x-www-form-urlencoded") != nil {
            for item in recorded.formItems where parameters[item.name] == nil { parameters[item.name] = item.value }
        }
        self.parameters = parameters
    }

    func parameter(_ name: String?) -> String? {
        guard let name, let value = parameters[name], !value.isEmpty else { return nil }
        return value
    }

    /// The client id and secret of an `Authorization: Basic` header (RFC 6749 §2.3.1: each form-encoded).
    var basicCredentials: (id: String, secret: String)? {
        guard let header = recorded.header("Authorization") else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic", let data = Data(base64Encoded: String(parts[1])),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        let decode = { (part: Substring) in
            String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
        }
        return (decode(text[..<colon]), decode(text[text.index(after: colon)...]))
    }

    /// The bearer token of the `Authorization` header.
    var bearerToken: String? {
        guard let header = recorded.header("Authorization") else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }
}
