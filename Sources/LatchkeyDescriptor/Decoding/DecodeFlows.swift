import LatchkeyVocabulary

extension DescriptorDecoder {
    func decodeFlows(_ node: JSONNode) -> Descriptor.Flows? {
        guard var reader = ObjectReader(node, sink, expected: "\"flows\"") else { return nil }
        defer { reader.finish() }
        var flows = Descriptor.Flows()
        if let password = reader.member("password") { flows.password = decodePassword(password) }
        if let code = reader.member("authorizationCode") { flows.authorizationCode = decodeAuthorizationCode(code) }
        if let refresh = reader.member("refresh") { flows.refresh = decodeRefresh(refresh) }
        if let signOut = reader.member("signOut") { flows.signOut = decodeSignOut(signOut) }
        if let userInfo = reader.member("userInfo") {
            var userReader = ObjectReader(userInfo, sink, expected: "\"userInfo\"")
            flows.userInfo = userReader?.requestName("request", self, expecting: ["user"])
            userReader?.finish()
        }
        if let device = reader.member("deviceCode"),
            var deviceReader = ObjectReader(device, sink, expected: "\"deviceCode\"")
        {
            let authorization = deviceReader.requestName("authorization", self, expecting: ["document"])
            let token = deviceReader.requestName("token", self, expecting: ["session"])
            deviceReader.finish()
            if let authorization, let token {
                flows.deviceCode = Descriptor.Flows.DeviceCode(authorization: authorization, token: token)
            }
        }
        if let credentials = reader.member("clientCredentials") {
            flows.clientCredentials = decodeClientCredentials(credentials)
        }
        if let endSession = reader.member("endSession") { flows.endSession = decodeEndSession(endSession) }
        return flows
    }

    private func decodePassword(_ node: JSONNode) -> Descriptor.Flows.Password? {
        guard var reader = ObjectReader(node, sink, expected: "\"password\"") else { return nil }
        defer { reader.finish() }
        let request = reader.requestName("request", self, expecting: ["session"])
        let labelNode = reader.member("identifierLabel")
        let label = labelNode.flatMap { ObjectReader.string($0, sink) } ?? "email"
        if let labelNode, !SwiftNames.isValidLowerCamelIdentifier(label) {
            sink.error(
                "identifierLabel \"\(label.prefix(40))\" is not a Swift argument label", at: labelNode,
                fixIt: "use a lowerCamelCase word such as \"email\" or \"username\"")
        }
        return request.map { Descriptor.Flows.Password(request: $0, identifierLabel: label) }
    }

    private func decodeAuthorizationCode(_ node: JSONNode) -> Descriptor.Flows.AuthorizationCode? {
        guard var reader = ObjectReader(node, sink, expected: "\"authorizationCode\"") else { return nil }
        defer { reader.finish() }
        let urlNode = reader.required("authorizeURL", "the authorization endpoint URL template")
        let url = urlNode.flatMap { decodeTemplate($0, context: .url) }
        if let url, let urlNode { URLRules.checkEndpoint(url, urlNode, sink) }
        let query = reader.members("query", "\"query\"").map { member in
            SecretRules.check(member, sink)
            return Named(member.key, decodeValue(member.value, .request))
        }
        let exchange = reader.requestName("exchange", self, expecting: ["session"])
        let parametersNode = reader.member("parameters")
        var flow = Descriptor.Flows.AuthorizationCode(
            authorizeURL: url ?? Template(segments: []), query: query, exchange: exchange ?? "",
            nonce: reader.bool("nonce", default: false), returnsState: reader.bool("returnsState", default: true),
            scopes: reader.strings("scopes"), scopeSeparator: reader.string("scopeSeparator") ?? " ",
            fetchUser: reader.bool("fetchUser", default: false),
            pendingLifetime: reader.int("pendingLifetime", range: 30...86_400) ?? 600)
        if let parametersNode { flow.parameters = decodeAuthorizeParameters(parametersNode, query: query) }
        guard url != nil, exchange != nil else { return nil }
        return flow
    }

    private func decodeRefresh(_ node: JSONNode) -> Descriptor.Flows.Refresh? {
        guard var reader = ObjectReader(node, sink, expected: "\"refresh\"") else { return nil }
        defer { reader.finish() }
        let request = reader.requestName("request", self, expecting: ["session"])
        let reuse = reader.strings("reuseCodes")
        return request.map { Descriptor.Flows.Refresh(request: $0, reuseCodes: reuse) }
    }

    private func decodeSignOut(_ node: JSONNode) -> Descriptor.Flows.SignOut? {
        guard var reader = ObjectReader(node, sink, expected: "\"signOut\"") else { return nil }
        defer { reader.finish() }
        let request = reader.member("request").flatMap { requestNode -> String? in
            guard let name = ObjectReader.string(requestNode, sink) else { return nil }
            requestReferences.append((name, requestNode, []))
            return name
        }
        let scopes = reader.strings("scopes")
        if let scopesNode = node.object?["scopes"] {
            for scope in scopes where !SwiftNames.isValidErrorCode(scope) {
                sink.error(
                    "sign-out scope \"\(scope.prefix(40))\" cannot name a Swift enum case", at: scopesNode,
                    fixIt: "use lower_snake_case words such as \"global\" or \"local\"")
            }
            if Set(scopes.map(SwiftNames.lowerCamelCase)).count != scopes.count {
                sink.error("sign-out scopes must be distinct", at: scopesNode)
            }
        }
        let defaultNode = reader.member("defaultScope")
        let defaultScope = defaultNode.flatMap { ObjectReader.string($0, sink) }
        if let defaultNode, let defaultScope, !scopes.contains(defaultScope) {
            sink.error("defaultScope \"\(defaultScope.prefix(40))\" is not in \"scopes\"", at: defaultNode)
        }
        let keepNode = node.object?["keepSessionScopes"]
        let keep = reader.strings("keepSessionScopes")
        if let keepNode, let unknown = keep.first(where: { !scopes.contains($0) }) {
            sink.error("keepSessionScopes names \"\(unknown.prefix(40))\", which is not in \"scopes\"", at: keepNode)
        }
        return Descriptor.Flows.SignOut(
            request: request, scopes: scopes, defaultScope: defaultScope, keepSessionScopes: keep)
    }
}

extension ObjectReader {
    /// Reads a required request name and records it for the reference check.
    mutating func requestName(_ key: String, _ decoder: DescriptorDecoder, expecting responses: [String]) -> String? {
        guard let node = required(key, "the name of a request declared in \"requests\"") else { return nil }
        guard let name = ObjectReader.string(node, sink) else { return nil }
        decoder.requestReferences.append((name, node, responses))
        return name
    }
}
