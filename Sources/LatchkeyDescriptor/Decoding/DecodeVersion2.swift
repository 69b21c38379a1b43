import LatchkeyVocabulary

/// The keys format version 2 added to requests, callbacks and tokens.
extension DescriptorDecoder {
    /// A request's `authorizationScheme`: an HTTP auth-scheme token, only with `"authorization": "accessToken"`.
    func decodeAuthorizationScheme(_ node: JSONNode?, authorization: RequestAuthorization) -> String {
        guard let node else { return "Bearer" }
        requireFormatVersion(2, for: "\"authorizationScheme\"", at: node)
        guard let text = ObjectReader.string(node, sink, "an authorization scheme, e.g. \"Bearer\"") else {
            return "Bearer"
        }
        let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard !text.isEmpty, text.count <= 32, text.allSatisfy({ tokenCharacters.contains($0) }) else {
            sink.error(
                "\"\(text.prefix(40))\" is not an HTTP authorization scheme", at: node,
                fixIt: "use one word of letters and digits, e.g. \"Bearer\" or \"OAuth\"")
            return "Bearer"
        }
        if authorization != .accessToken {
            sink.error(
                "\"authorizationScheme\" needs \"authorization\": \"accessToken\"", at: node,
                fixIt: "add \"authorization\": \"accessToken\", or remove \"authorizationScheme\"")
        }
        return text
    }

    /// A request's own `session` fields, only on requests whose response is a session.
    func decodeRequestSession(_ node: JSONNode, response: ResponseMeaning) -> Descriptor.SessionFields? {
        requireFormatVersion(2, for: "a request's \"session\"", at: node)
        if !response.carriesSession {
            sink.error(
                "a request's \"session\" needs \"response\": \"session\", \"sessionOrUser\" or \"sessionOrDocument\"",
                at: node,
                fixIt: "set \"response\", or remove \"session\"")
        }
        return decodeSessionFields(node)
    }

    /// `callback.location`, where `form_post` needs format version 2.
    func decodeCallbackLocation(_ reader: inout ObjectReader, default base: CallbackLocation) -> CallbackLocation {
        let location = reader.oneOf("location", default: base)
        if location == .formPost, let node = reader.object["location"] {
            requireFormatVersion(2, for: "\"location\": \"form_post\"", at: node)
        }
        return location
    }

    /// `callback.user`: the parameter holding a JSON user document and pointers into it.
    func decodeCallbackUser(_ node: JSONNode) -> Descriptor.CallbackUser? {
        requireFormatVersion(2, for: "\"callback\".\"user\"", at: node)
        guard var reader = ObjectReader(node, sink, expected: "\"user\"") else { return nil }
        defer { reader.finish() }
        let parameter = reader.string("parameter", required: true, "the callback parameter holding the user")
        let email = reader.member("email").flatMap { decodePointer($0) }
        let name = reader.member("name").flatMap { decodePointer($0) }
        let givenName = reader.member("givenName").flatMap { decodePointer($0) }
        let familyName = reader.member("familyName").flatMap { decodePointer($0) }
        guard let parameter else { return nil }
        return Descriptor.CallbackUser(
            parameter: parameter, email: email, name: name, givenName: givenName, familyName: familyName)
    }

    /// `tokens.issuerValidation`: `exact` (the default) or `tenant_placeholder`.
    func decodeIssuerValidation(_ reader: inout ObjectReader) -> IssuerValidation {
        let mode = reader.oneOf("issuerValidation", default: IssuerValidation.exact)
        if let node = reader.object["issuerValidation"] {
            requireFormatVersion(2, for: "\"issuerValidation\"", at: node)
        }
        return mode
    }

    /// `discovery.url`: where an OpenID provider's discovery document is when it is not at
    /// `{issuer}/.well-known/openid-configuration`; an https (or loopback http) URL template over the inputs
    /// and variables (never a discovered value: the document is what discovers them).
    func decodeDiscoveryDocumentURL(_ node: JSONNode) -> Template? {
        requireFormatVersion(2, for: "\"discovery\".\"url\"", at: node)
        guard let template = decodeTemplate(node, context: .url) else { return nil }
        if let discovered = template.variables.first(where: { $0.hasPrefix("discovered.") }) {
            sink.error(
                "the discovery document's URL cannot use \"{\(discovered)}\"", at: node,
                fixIt: "build it from inputs and variables, e.g. \"{discoveryURL}\"")
            return nil
        }
        URLRules.checkEndpoint(template, node, sink)
        return template
    }
}
