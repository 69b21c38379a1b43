import LatchkeyVocabulary

/// Turns a parsed JSON document into a ``Descriptor``, collecting every problem on the way.
final class DescriptorDecoder {
    let sink: DiagnosticSink
    /// Templates and where they were written, checked once every name is known.
    var templateUses: [(template: Template, node: JSONNode, context: TemplateContext)] = []
    /// Request names used by flows and actions, checked once every request is known.
    var requestReferences: [(name: String, node: JSONNode, expectedResponses: [String])] = []
    /// Error codes used by mapping rows.
    var codeReferences: [(code: String, node: JSONNode)] = []
    /// The format version the descriptor declares (the newest while it is missing or unknown, so a
    /// missing version is reported once rather than at every newer key).
    var formatVersion = DescriptorFormat.currentVersion
    /// The value enums' names so far (name → the action and parameter that declare it), so that two
    /// parameters never generate the same one.
    var valueEnums: [String: String] = [:]

    /// Where a template is used, which decides the variables it may name.
    enum TemplateContext: Equatable {
        case configuration
        case request
        case url
    }

    init(sink: DiagnosticSink) {
        self.sink = sink
    }

    func decode(_ root: JSONNode) -> Descriptor? {
        guard var reader = ObjectReader(root, sink, expected: "a descriptor") else { return nil }
        _ = reader.member("$schema")
        let version = reader.required("formatVersion", "the descriptor format version, 2").flatMap {
            decodeFormatVersion($0)
        }
        formatVersion = version ?? DescriptorFormat.currentVersion
        let nameNode = reader.required("name", "the provider name, e.g. \"acme\"")
        let name = nameNode.flatMap { decodeName($0) }
        let swiftNameNode = reader.member("swiftName")
        let swiftName = swiftNameNode.flatMap { decodeSwiftName($0) }
        if let prefix = swiftName ?? name.map(SwiftNames.upperCamelCase), let node = swiftNameNode ?? nameNode,
            let collision = GeneratedNames.collision(prefix)
        {
            sink.error(collision, at: node, fixIt: "set a different \"swiftName\"")
        }
        let displayName = reader.string("displayName", required: true, "the name shown to people")
        let summary = reader.string("description")
        let documentation = reader.member("documentation").flatMap { decodeDocumentationURL($0) }
        let sources =
            reader.member("sources").map { node in
                ObjectReader.strings(node, sink).enumerated().compactMap { index, text in
                    node.array.map { decodeDocumentationURL($0[index]) } ?? text
                }
            } ?? []
        let inputs = reader.members("inputs", "\"inputs\"").compactMap { decodeInput($0) }
        let variables = reader.members("variables", "\"variables\"").compactMap { member -> Named<Template>? in
            guard let template = decodeTemplate(member.value, context: .configuration) else { return nil }
            return Named(member.key, template)
        }
        let discovery = reader.member("discovery").flatMap { decodeDiscovery($0) }
        let headers = reader.members("headers", "\"headers\"").map { Named($0.key, decodeValue($0.value, .request)) }
        let tokenParameters = reader.members("tokenParameters", "\"tokenParameters\"").map {
            Named($0.key, decodeValue($0.value, .request))
        }
        let requests = reader.members("requests", "\"requests\"").compactMap { member in
            decodeRequest(member.value).map { Named(member.key, $0) }
        }
        let flows = reader.member("flows").flatMap { decodeFlows($0) } ?? Descriptor.Flows()
        let actions = reader.members("actions", "\"actions\"").compactMap { member in
            decodeAction(member.value, name: member.key, enums: &valueEnums).map { Named(member.key, $0) }
        }
        let errors = reader.member("errors").flatMap { decodeErrors($0) } ?? Descriptor.Errors()
        let callback = reader.member("callback").flatMap { decodeCallback($0) } ?? Descriptor.Callback()
        let session = reader.member("session").flatMap { decodeSessionFields($0) } ?? Descriptor.SessionFields()
        let user = reader.member("user").flatMap { decodeUserFields($0) } ?? Descriptor.UserFields()
        let tokens = reader.member("tokens").flatMap { decodeTokens($0) } ?? Descriptor.Tokens()
        let policy = reader.member("clientPolicy").flatMap { decodeClientPolicy($0) } ?? Descriptor.ClientPolicy()
        let vendorSDK = reader.member("vendorSDK").flatMap { node in
            decodeVendorSDK(node, inputs: inputs, flows: flows, tokens: tokens)
        }
        let clientSecret = reader.member("clientSecret").flatMap { decodeClientSecret($0, requests: requests) }
        let captures = reader.member("captures").map { decodeCaptures($0) } ?? []
        let dpop = reader.oneOf("dpop", default: DPoPUse.never)
        let pushedAuthorization = reader.member("pushedAuthorization").flatMap { decodePushedAuthorization($0) }
        let actionGroupsNode = reader.member("actionGroups")
        let actionGroups = decodeActionGroups(
            reader.members("actionGroups", "\"actionGroups\""), at: actionGroupsNode)
        let accessTokenClaims = reader.member("accessTokenClaims").flatMap { decodeAccessTokenClaims($0) }
        let audience = decodeAudience(reader.member("audience"), flows: flows)
        reader.finish()

        guard let version, let name, let displayName else { return nil }
        var descriptor = Descriptor(
            formatVersion: version, name: name, swiftName: swiftName ?? SwiftNames.upperCamelCase(name),
            displayName: displayName, summary: summary, documentation: documentation, sources: sources,
            inputs: inputs, variables: variables, discovery: discovery, headers: headers,
            tokenParameters: tokenParameters, requests: requests, flows: flows, actions: actions, errors: errors,
            callback: callback, session: session, user: user, tokens: tokens, clientPolicy: policy,
            vendorSDK: vendorSDK, clientSecret: clientSecret, captures: captures, dpop: dpop,
            pushedAuthorization: pushedAuthorization, audience: audience)
        descriptor.actionGroups = actionGroups
        descriptor.accessTokenClaims = accessTokenClaims
        return descriptor
    }

    /// `pushedAuthorization`: `{"url": "…", "use": "whenRequired" | "always"}`, both optional.
    private func decodePushedAuthorization(_ node: JSONNode) -> Descriptor.PushedAuthorization? {
        guard var reader = ObjectReader(node, sink, expected: "\"pushedAuthorization\"") else { return nil }
        defer { reader.finish() }
        let url =
            reader.member("url").flatMap { decodeTemplate($0, context: .url) }
            ?? Template(segments: [.variable("discovered.pushed_authorization_request_endpoint")])
        return Descriptor.PushedAuthorization(
            url: url, use: reader.oneOf("use", default: PushedAuthorizationUse.whenRequired))
    }

    // MARK: Names

    private func decodeName(_ node: JSONNode) -> String? {
        guard let text = ObjectReader.string(node, sink) else { return nil }
        guard SwiftNames.isValidDescriptorName(text) else {
            sink.error(
                "invalid provider name \"\(text.prefix(60))\"", at: node,
                fixIt:
                    "use lower-case letters and digits, words joined by single hyphens, starting with a letter, at most 64 characters (e.g. \"base-idp\")"
            )
            return nil
        }
        return text
    }

    private func decodeSwiftName(_ node: JSONNode) -> String? {
        guard let text = ObjectReader.string(node, sink) else { return nil }
        guard SwiftNames.isValidTypeNamePrefix(text) else {
            sink.error(
                "invalid swiftName \"\(text.prefix(60))\"", at: node,
                fixIt: "use an UpperCamelCase Swift identifier of ASCII letters and digits (e.g. \"BaseIdP\")")
            return nil
        }
        return text
    }

    func decodeDocumentationURL(_ node: JSONNode) -> String? {
        guard let text = ObjectReader.string(node, sink, "a URL") else { return nil }
        guard URLRules.isHTTPSURL(text) else {
            sink.error("\"\(text.prefix(80))\" is not an https URL", at: node, fixIt: "give an absolute https:// URL")
            return nil
        }
        return text
    }

    // MARK: Templates and values

    func decodeTemplate(_ node: JSONNode, context: TemplateContext) -> Template? {
        guard let text = ObjectReader.string(node, sink, "a string") else { return nil }
        return parseTemplate(text, node, context: context)
    }

    func parseTemplate(_ text: String, _ node: JSONNode, context: TemplateContext) -> Template? {
        do {
            let template = try Template.parse(text)
            templateUses.append((template, node, context))
            return template
        } catch {
            let detail: String
            switch error {
            case .unclosed: detail = "a \"{\" is not closed"
            case .unopened: detail = "a \"}\" has no matching \"{\""
            case .invalidName(let name): detail = "\"{\(name.prefix(40))}\" is not a valid variable name"
            }
            sink.error(
                "invalid template: \(detail)", at: node,
                fixIt: "write variables as {name}, and literal braces as {{ and }}")
            return nil
        }
    }

    func decodeValue(_ node: JSONNode, _ context: TemplateContext) -> Value {
        switch node.value {
        case .string(let text): return parseTemplate(text, node, context: context).map(Value.string) ?? .null
        case .number(let number): return .number(number.lexeme)
        case .bool(let flag): return .bool(flag)
        case .null: return .null
        case .array(let items): return .array(items.map { decodeValue($0, context) })
        case .object(let object):
            return .object(object.members.map { Named($0.key, decodeValue($0.value, context)) })
        }
    }
}
