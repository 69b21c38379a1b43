import LatchkeyVocabulary

extension DescriptorDecoder {
    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]

    func decodeRequest(_ node: JSONNode) -> Descriptor.Request? {
        guard var reader = ObjectReader(node, sink, expected: "a request") else { return nil }
        defer { reader.finish() }
        let method = reader.oneOf("method", Self.methods, default: "GET")
        let urlNode = reader.required("url", "the request URL template")
        let url = urlNode.flatMap { decodeTemplate($0, context: .url) }
        if let url, let urlNode { URLRules.checkEndpoint(url, urlNode, sink) }
        let query = reader.members("query", "\"query\"").map { member in
            SecretRules.check(member, sink)
            return Named(member.key, decodeValue(member.value, .request))
        }
        let headers = reader.members("headers", "\"headers\"").map { member in
            SecretRules.check(member, sink)
            return Named(member.key, decodeValue(member.value, .request))
        }
        let encoding = reader.oneOf("encoding", default: BodyEncoding.none)
        let bodyNode = node.object?["body"]
        let body = reader.members("body", "\"body\"").map { member in
            SecretRules.check(member, sink)
            return Named(member.key, decodeValue(member.value, .request))
        }
        if let bodyNode, encoding == .none {
            sink.error("a request with a body needs \"encoding\": \"form\" or \"json\"", at: bodyNode)
        }
        if let bodyNode, method == "GET" {
            sink.error("a GET request cannot have a body", at: bodyNode, fixIt: "move the parameters to \"query\"")
        }
        let clientAuthentication = reader.oneOf("clientAuthentication", default: ClientAuthenticationMethod.none)
        if clientAuthentication.needsFormatVersion2, let authNode = node.object?["clientAuthentication"] {
            requireFormatVersion(2, for: "\"clientAuthentication\": \"\(clientAuthentication.rawValue)\"", at: authNode)
        }
        let authorization = reader.oneOf("authorization", default: RequestAuthorization.none)
        let response = reader.oneOf("response", default: ResponseMeaning.none)
        let scheme = decodeAuthorizationScheme(reader.member("authorizationScheme"), authorization: authorization)
        let sessionNode = reader.member("session")
        let session = sessionNode.flatMap { decodeRequestSession($0, response: response) }
        let ignored =
            reader.member("ignoreErrorStatuses").map { statusNode -> [Int] in
                guard let items = statusNode.array else {
                    sink.error("expected an array of HTTP statuses", at: statusNode)
                    return []
                }
                return items.compactMap { ObjectReader.int($0, sink, range: 400...599) }
            } ?? []
        guard let url else { return nil }
        return Descriptor.Request(
            method: method, url: url, query: query, headers: headers, encoding: encoding, body: body,
            clientAuthentication: clientAuthentication, authorization: authorization, response: response,
            ignoreErrorStatuses: ignored, authorizationScheme: scheme, session: session)
    }

    func decodeAction(_ node: JSONNode) -> Descriptor.Action? {
        guard var reader = ObjectReader(node, sink, expected: "an action") else { return nil }
        defer { reader.finish() }
        let requestNode = reader.required("request", "the request the action sends")
        let request = requestNode.flatMap { ObjectReader.string($0, sink) }
        if let request, let requestNode { requestReferences.append((request, requestNode, [])) }
        let summary = reader.string("description")
        let parameters = reader.members("parameters", "\"parameters\"").compactMap {
            member -> Named<Descriptor.Action.Parameter>? in
            checkVariableName(member)
            guard var parameterReader = ObjectReader(member.value, sink, expected: "a parameter") else { return nil }
            defer { parameterReader.finish() }
            let type = parameterReader.oneOf("type", default: ParameterType.string)
            if type == .object, let typeNode = parameterReader.member("type") {
                requireFormatVersion(2, for: "parameter \"type\": \"object\"", at: typeNode)
            }
            let parameter = Descriptor.Action.Parameter(
                type: type,
                optional: parameterReader.bool("optional", default: false),
                minLength: parameterReader.int("minLength", range: 0...4096),
                values: parameterReader.strings("values"),
                summary: parameterReader.string("description"))
            return Named(member.key, parameter)
        }
        let pkce = reader.member("pkce").flatMap { decodeLinkPKCE($0, parameters: parameters.map(\.name)) }
        let methodNode = reader.member("method")
        if let methodNode { requireFormatVersion(2, for: "action \"method\"", at: methodNode) }
        let method = methodNode.flatMap { ObjectReader.string($0, sink, "the generated method's name") }
        var action = Descriptor.Action(request: request ?? "", summary: summary, parameters: parameters, pkce: pkce)
        action.method = method
        decodeActionExtensions(&reader, into: &action)
        guard request != nil else { return nil }
        return action
    }
}
