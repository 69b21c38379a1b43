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
        let pagination = reader.member("pagination").flatMap { decodePagination($0, response: response) }
        let omitsNode = reader.member("omitEmptyBody")
        let omitsEmptyBody = omitsNode.flatMap { decodeOmitEmptyBody($0, encoding: encoding) } ?? false
        guard let url else { return nil }
        var request = Descriptor.Request(
            method: method, url: url, query: query, headers: headers, encoding: encoding, body: body,
            clientAuthentication: clientAuthentication, authorization: authorization, response: response,
            ignoreErrorStatuses: ignored, authorizationScheme: scheme, session: session, pagination: pagination)
        request.omitsEmptyBody = omitsEmptyBody
        return request
    }

    /// `omitEmptyBody` (format version 2): only for a JSON body.
    private func decodeOmitEmptyBody(_ node: JSONNode, encoding: BodyEncoding) -> Bool? {
        requireFormatVersion(2, for: "\"omitEmptyBody\"", at: node)
        guard let flag = node.bool else {
            sink.error("expected true or false, found \(node.typeName)", at: node)
            return nil
        }
        if flag, encoding != .json {
            sink.error("\"omitEmptyBody\" needs \"encoding\": \"json\"", at: node, fixIt: "remove it")
        }
        return flag
    }

    /// An action; `enums` collects the value enums' names (name → the action and parameter that declare it) so
    /// that two parameters never generate the same one.
    func decodeAction(_ node: JSONNode, name: String, enums: inout [String: String]) -> Descriptor.Action? {
        guard var reader = ObjectReader(node, sink, expected: "an action") else { return nil }
        defer { reader.finish() }
        let requestNode = reader.required("request", "the request the action sends")
        let request = requestNode.flatMap { ObjectReader.string($0, sink) }
        let returnsNode = reader.member("returns")
        // Only a document answer has members to pick.
        let expected = returnsNode == nil ? [] : ["document"]
        if let request, let requestNode { requestReferences.append((request, requestNode, expected)) }
        let summary = reader.string("description")
        let parameters = reader.members("parameters", "\"parameters\"").compactMap {
            member -> Named<Descriptor.Action.Parameter>? in
            checkVariableName(member)
            guard var parameterReader = ObjectReader(member.value, sink, expected: "a parameter") else { return nil }
            defer { parameterReader.finish() }
            let type = parameterReader.oneOf("type", default: ParameterType.string)
            if type == .object || type == .strings || type == .uuid, let typeNode = parameterReader.member("type") {
                requireFormatVersion(2, for: "parameter \"type\": \"\(type.rawValue)\"", at: typeNode)
            }
            let valuesNode = parameterReader.member("values")
            let values = valuesNode.map { ObjectReader.strings($0, sink) } ?? []
            if let valuesNode {
                checkValues(values, type: type, at: valuesNode, action: name, parameter: member.key, enums: &enums)
            }
            let parameter = Descriptor.Action.Parameter(
                type: type,
                optional: parameterReader.bool("optional", default: false),
                minLength: parameterReader.int("minLength", range: 0...4096),
                values: values,
                summary: parameterReader.string("description"))
            return Named(member.key, parameter)
        }
        let pkce = reader.member("pkce").flatMap { decodeLinkPKCE($0, parameters: parameters.map(\.name)) }
        let methodNode = reader.member("method")
        if let methodNode { requireFormatVersion(2, for: "action \"method\"", at: methodNode) }
        let method = methodNode.flatMap { ObjectReader.string($0, sink, "the generated method's name") }
        if let returnsNode { requireFormatVersion(2, for: "action \"returns\"", at: returnsNode) }
        let returns = returnsNode.flatMap { decodePointer($0) }
        let eventNode = reader.member("event")
        if let eventNode { requireFormatVersion(2, for: "action \"event\"", at: eventNode) }
        let event = eventNode.flatMap { decodeEventName($0) }
        var action = Descriptor.Action(request: request ?? "", summary: summary, parameters: parameters, pkce: pkce)
        action.method = method
        action.returns = returns
        action.event = event
        decodeActionExtensions(&reader, into: &action)
        guard request != nil else { return nil }
        return action
    }

    /// An event name: lower_snake_case, as the runtime's events are named.
    func decodeEventName(_ node: JSONNode) -> String? {
        guard let event = ObjectReader.string(node, sink, "an event name") else { return nil }
        guard SwiftNames.isValidErrorCode(event) else {
            sink.error(
                "event name \"\(event.prefix(40))\" is not lower_snake_case", at: node, fixIt: "e.g. \"user_updated\"")
            return nil
        }
        return event
    }

    /// A parameter's `values` become a Swift enum (``ValueEnumNames``): string parameters (and `strings`, whose
    /// items take the enum), at least one
    /// value, each value's case name an identifier no other value of the list shares, and an enum name no other
    /// parameter's enum (nor the client's own nested types) takes.
    func checkValues(
        _ values: [String], type: ParameterType, at node: JSONNode, action: String, parameter: String,
        enums: inout [String: String]
    ) {
        guard type == .string || type == .strings else {
            sink.error("\"values\" needs a string or strings parameter, not \(type.rawValue)", at: node)
            return
        }
        guard !values.isEmpty else {
            sink.error("\"values\" lists no value", at: node, fixIt: "list the values, or remove \"values\"")
            return
        }
        var cases: [String: String] = [:]
        for value in values {
            let caseName = ValueEnumNames.caseName(value)
            if let problem = ValueEnumNames.problem(caseName: caseName) {
                sink.error("the value \"\(value.prefix(40))\" cannot be a Swift enum case: \(problem)", at: node)
            } else if let other = cases[caseName] {
                sink.error(
                    "the values \"\(other.prefix(40))\" and \"\(value.prefix(40))\" both become the case "
                        + "\(caseName)", at: node)
            }
            cases[caseName] = value
        }
        let enumName = ValueEnumNames.enumName(action: action, parameter: parameter)
        let owner = "\(action).\(parameter)"
        if ValueEnumNames.clientMemberTypes.contains(enumName) {
            sink.error("the values' enum \(enumName) has the name of a type the client declares", at: node)
        } else if let other = enums[enumName] {
            sink.error(
                "the values' enum \(enumName) of \(owner) has the name of \(other)'s", at: node,
                fixIt: "rename the action or the parameter")
        }
        enums[enumName] = owner
    }
}
