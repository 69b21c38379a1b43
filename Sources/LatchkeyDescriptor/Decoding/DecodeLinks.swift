import LatchkeyVocabulary

/// Format version 2: sessions in a callback's fragment (`callback.implicit`) and PKCE flows completed by an
/// emailed link (`actions.<name>.pkce`).
extension DescriptorDecoder {
    /// The first format version that knows `callback.implicit` and `actions.<name>.pkce`.
    static let linkFormatVersion = 2

    func decodeImplicitSession(_ node: JSONNode) -> Descriptor.ImplicitSession? {
        requireFormatVersion(Self.linkFormatVersion, for: "callback \"implicit\"", at: node)
        guard var reader = ObjectReader(node, sink, expected: "\"implicit\"") else { return nil }
        defer { reader.finish() }
        let redirectsNode = reader.required("redirects", "the redirect URI names that accept a session")
        let redirects = redirectsNode.map { checkRedirectNames($0) } ?? []
        if let redirectsNode, redirects.isEmpty, redirectsNode.array != nil {
            sink.error(
                "\"redirects\" is empty", at: redirectsNode,
                fixIt: "name at least one redirect URI, e.g. [\"default\"] for the configured redirect URI")
        }
        let typeParameter = reader.string("typeParameter")
        let events = reader.members("events", "\"events\"").compactMap { member -> Named<String>? in
            guard let name = ObjectReader.string(member.value, sink) else { return nil }
            guard SwiftNames.isValidErrorCode(name) else {
                sink.error(
                    "event name \"\(name.prefix(40))\" is not lower_snake_case", at: member.value,
                    fixIt: "use lower_snake_case words such as \"password_recovery\"")
                return nil
            }
            return Named(member.key, name)
        }
        if !events.isEmpty, typeParameter == nil {
            sink.error(
                "\"events\" needs \"typeParameter\"", at: node,
                fixIt: "name the fragment parameter that tells the kind of link, e.g. \"type\"")
        }
        guard redirectsNode != nil else { return nil }
        return Descriptor.ImplicitSession(redirects: redirects, typeParameter: typeParameter, events: events)
    }

    func decodeLinkPKCE(_ node: JSONNode, parameters: [String]) -> Descriptor.LinkPKCE? {
        requireFormatVersion(Self.linkFormatVersion, for: "action \"pkce\"", at: node)
        guard var reader = ObjectReader(node, sink, expected: "\"pkce\"") else { return nil }
        defer { reader.finish() }
        let method = reader.oneOf("method", default: PKCEMethod.s256).rawValue
        let redirects = reader.member("redirects").map { checkRedirectNames($0) } ?? []
        let lifetime = reader.int("lifetime", range: 30...86_400)
        let eventNode = reader.member("event")
        let event = eventNode.flatMap { ObjectReader.string($0, sink) }
        if let event, let eventNode, !SwiftNames.isValidErrorCode(event) {
            sink.error(
                "event name \"\(event.prefix(40))\" is not lower_snake_case", at: eventNode,
                fixIt: "use lower_snake_case words such as \"password_recovery\"")
        }
        var pkce = Descriptor.LinkPKCE(method: method, redirects: redirects, lifetime: lifetime, event: event)
        if let whenNode = reader.member("when") {
            pkce.when = ObjectReader.strings(whenNode, sink, "a parameter name")
            for name in pkce.when where !parameters.contains(name) {
                sink.error(
                    "\"\(name.prefix(40))\" is not a parameter of this action", at: whenNode,
                    fixIt: "name one of the action's parameters, e.g. \"email\"")
            }
        }
        return pkce
    }

    private func checkRedirectNames(_ node: JSONNode) -> [String] {
        let names = ObjectReader.strings(node, sink)
        for name in names
        where name.first.map({ ("a"..."z").contains($0) }) != true
            || !name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        {
            sink.error(
                "redirect name \"\(name.prefix(40))\" is not a redirectURIs key", at: node,
                fixIt: "use \"default\" or a lowerCamelCase name such as \"recovery\"")
        }
        return names
    }

    /// Checks what the new members need from the rest of the descriptor, and that the format version knows them.
    func checkLinks(_ descriptor: Descriptor, root: JSONNode) {
        let callbackNode = root.object?["callback"]
        if descriptor.callback.implicit != nil, let node = callbackNode?.object?["implicit"] {
            if descriptor.flows.userInfo == nil {
                sink.error(
                    "callback \"implicit\" needs a \"userInfo\" flow", at: node,
                    fixIt: "declare flows.userInfo: the user is fetched with the new access token")
            }
            let session = descriptor.session
            for pointer in [session.accessToken]
                + [session.refreshToken, session.expiresIn, session.expiresAt]
                .compactMap({ $0 })
            where pointer.dropFirst().contains("/") || !pointer.hasPrefix("/") {
                sink.error(
                    "session pointer \"\(pointer.prefix(60))\" cannot name a fragment parameter", at: node,
                    fixIt: "sessions in a fragment need one-segment session pointers such as \"/access_token\"")
            }
        }
        for action in descriptor.actions {
            guard action.value.pkce != nil,
                let node = root.object?["actions"]?.object?[action.name]?.object?["pkce"]
            else { continue }
            if descriptor.flows.authorizationCode == nil {
                sink.error(
                    "action \"pkce\" needs an \"authorizationCode\" flow", at: node,
                    fixIt: "declare flows.authorizationCode: its exchange request redeems the link's code")
            }
            if let request = descriptor.requests.first(where: { $0.name == action.value.request })?.value {
                let values = (request.query + request.body).map(\.value)
                let mentioned = Set(values.flatMap { $0.templates.flatMap(\.variables) })
                for variable in ["code_challenge", "code_challenge_method"] where !mentioned.contains(variable) {
                    sink.error(
                        "action \"pkce\" needs its request \"\(action.value.request.prefix(40))\" to send {\(variable)}",
                        at: node, fixIt: "add a member such as \"\(variable)\": \"{\(variable)}\" to the request's body"
                    )
                }
            }
        }
    }
}
