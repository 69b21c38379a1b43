import LatchkeyVocabulary

extension DescriptorDecoder {
    func decodeInput(_ member: JSONMember) -> Descriptor.Input? {
        guard var reader = ObjectReader(member.value, sink, expected: "an input") else { return nil }
        defer { reader.finish() }
        checkVariableName(member)
        let type = reader.oneOf("type", default: InputKind.string)
        let summary = reader.string("description")
        let required = reader.bool("required", default: true)
        let defaultNode = reader.member("default")
        let defaultValue = defaultNode.flatMap { ObjectReader.string($0, sink) }
        if let defaultNode, let defaultValue, type == .url, !URLRules.isAllowedEndpoint(defaultValue) {
            sink.error(
                "default URL \"\(defaultValue.prefix(80))\" is not https", at: defaultNode,
                fixIt: "use https://, or http:// only on 127.0.0.1, [::1] or localhost")
        }
        if let defaultNode, let defaultValue {
            SecretRules.checkLiteral(name: member.key, value: defaultValue, defaultNode, sink)
        }
        let trim = reader.bool("trimTrailingSlash", default: false)
        let environment = reader.string("environment", "an environment variable name")
        let rejections =
            (reader.member("reject").flatMap { node -> [Descriptor.Rejection]? in
                guard let items = node.array else {
                    sink.error("\"reject\" must be an array of rules", at: node)
                    return nil
                }
                return items.compactMap { decodeRejection($0) }
            }) ?? []
        let requirement = reader.member("require").flatMap { decodeRequirement($0) }
        return Descriptor.Input(
            name: member.key, type: type, summary: summary, required: required, defaultValue: defaultValue,
            trimTrailingSlash: trim, environment: environment, rejections: rejections, requirement: requirement)
    }

    private func decodeRejection(_ node: JSONNode) -> Descriptor.Rejection? {
        guard var reader = ObjectReader(node, sink, expected: "a rejection rule") else { return nil }
        defer { reader.finish() }
        let prefix = reader.string("prefix")
        let claim = reader.string("jwtClaim")
        let equals = reader.string("equals")
        let code = reader.string("code") ?? "secret_in_app"
        let message = reader.string("message", required: true, "the message shown to developers")
        if (prefix == nil) == (claim == nil) {
            sink.error("a rejection rule needs exactly one of \"prefix\" or \"jwtClaim\"", at: node)
            return nil
        }
        if claim != nil && equals == nil {
            sink.error("a \"jwtClaim\" rule needs \"equals\"", at: node)
            return nil
        }
        if let codeNode = node.object?["code"] { codeReferences.append((code, codeNode)) }
        guard let message else { return nil }
        return Descriptor.Rejection(prefix: prefix, jwtClaim: claim, equals: equals, code: code, message: message)
    }

    func checkVariableName(_ member: JSONMember) {
        guard Template.isValidVariableName(member.key), !member.key.contains(".") else {
            sink.error(
                "\"\(member.key.prefix(40))\" is not a valid variable name", at: member.keyLocation,
                pointer: member.value.pointer.description,
                fixIt: "use letters, digits and underscores, starting with a letter")
            return
        }
    }

    func decodeDiscovery(_ node: JSONNode) -> Descriptor.Discovery? {
        guard var reader = ObjectReader(node, sink, expected: "\"discovery\"") else { return nil }
        defer { reader.finish() }
        switch reader.oneOf("type", ["openid", "custom"], default: "openid") {
        case "custom":
            guard let requestNode = reader.required("request", "the request that fetches the configuration"),
                let request = ObjectReader.string(requestNode, sink)
            else { return nil }
            requestReferences.append((request, requestNode, ["document"]))
            let members = reader.members("members", "\"members\"").compactMap { member -> Named<String>? in
                guard let pointer = decodePointer(member.value) else { return nil }
                return Named(member.key, pointer)
            }
            return .custom(request: request, members: members)
        default:
            let documentURL = reader.member("url").flatMap(decodeDiscoveryDocumentURL)
            guard let issuerNode = reader.required("issuer", "the issuer URL template"),
                let issuer = decodeTemplate(issuerNode, context: .url)
            else { return nil }
            return .openID(issuer: issuer, documentURL: documentURL)
        }
    }

    func decodePointer(_ node: JSONNode) -> String? {
        guard let text = ObjectReader.string(node, sink, "a JSON pointer") else { return nil }
        guard text.hasPrefix("/") || text.isEmpty else {
            sink.error(
                "\"\(text.prefix(40))\" is not a JSON pointer", at: node,
                fixIt: "start it with \"/\", e.g. \"/access_token\"")
            return nil
        }
        return text
    }

    func decodeSessionFields(_ node: JSONNode) -> Descriptor.SessionFields? {
        guard var reader = ObjectReader(node, sink, expected: "\"session\"") else { return nil }
        defer { reader.finish() }
        let base = Descriptor.SessionFields()
        func field(_ key: String, _ fallback: String?) -> String? {
            guard let value = reader.member(key) else { return fallback }
            if value.value == .null { return nil }
            return decodePointer(value)
        }
        return Descriptor.SessionFields(
            accessToken: field("accessToken", base.accessToken) ?? base.accessToken,
            refreshToken: field("refreshToken", base.refreshToken), idToken: field("idToken", base.idToken),
            tokenType: field("tokenType", base.tokenType), expiresIn: field("expiresIn", base.expiresIn),
            expiresAt: field("expiresAt", base.expiresAt), scope: field("scope", base.scope),
            user: field("user", base.user))
    }

    func decodeUserFields(_ node: JSONNode) -> Descriptor.UserFields? {
        guard var reader = ObjectReader(node, sink, expected: "\"user\"") else { return nil }
        defer { reader.finish() }
        let base = Descriptor.UserFields()
        func field(_ key: String, _ fallback: String?) -> String? {
            guard let value = reader.member(key) else { return fallback }
            if value.value == .null { return nil }
            return decodePointer(value)
        }
        var fields = Descriptor.UserFields(
            id: field("id", base.id) ?? base.id, email: field("email", base.email), name: field("name", base.name),
            role: field("role", base.role), scopes: field("scopes", base.scopes))
        fields.nameParts = reader.member("nameParts").map { decodeNameParts($0) } ?? []
        return fields
    }

    func decodeTokens(_ node: JSONNode) -> Descriptor.Tokens? {
        guard var reader = ObjectReader(node, sink, expected: "\"tokens\"") else { return nil }
        defer { reader.finish() }
        let format = reader.oneOf("accessToken", default: TokenFormat.opaque)
        let validate = reader.bool("validateIDToken", default: false)
        let jwks = reader.member("jwks").flatMap { decodeTemplate($0, context: .url) }
        let issuer = reader.member("issuer").flatMap { decodeTemplate($0, context: .url) }
        let keys = reader.member("accessTokenKeys").flatMap { decodeTemplate($0, context: .url) }
        let audience = reader.member("audience").flatMap { decodeTemplate($0, context: .request) }
        let implicitAssertion = reader.string("implicitAssertion")
        let issuerValidation = decodeIssuerValidation(&reader)
        if format.behaviour.verification != nil && keys == nil {
            sink.error(
                "\"paseto_v4_public\" access tokens are verified, but \"accessTokenKeys\" is missing", at: node,
                fixIt: "set it to the key document's URL, e.g. \"{discovered.paseto_public_key_endpoint}\"")
        }
        var tokens = Descriptor.Tokens(
            accessToken: format, validateIDToken: validate, jwks: jwks, issuer: issuer, accessTokenKeys: keys,
            audience: audience, implicitAssertion: implicitAssertion, issuerValidation: issuerValidation)
        tokens.footer = stringMembers(reader.members("footer", "\"footer\""))
        tokens.requiredClaims = reader.strings("requiredClaims", "a claim name")
        tokens.claimValues = stringMembers(reader.members("claimValues", "\"claimValues\""))
        tokens.userFromAccessToken = reader.bool("userFromAccessToken", default: false)
        tokens.userDocumentMustMatch =
            reader.member("userDocumentMustMatch").map { node in
                guard let items = node.array else {
                    sink.error("expected an array of JSON pointers", at: node)
                    return []
                }
                return items.compactMap { decodePointer($0) }
            } ?? []
        let checksToken = !tokens.footer.isEmpty || !tokens.requiredClaims.isEmpty || !tokens.claimValues.isEmpty
        if format.behaviour.verification == nil,
            checksToken || tokens.userFromAccessToken || !tokens.userDocumentMustMatch.isEmpty
        {
            sink.error(
                "\"footer\", \"requiredClaims\", \"claimValues\", \"userFromAccessToken\" and \"userDocumentMustMatch\" need a verified access token",
                at: node, fixIt: "set \"accessToken\" to \"paseto_v4_public\" or remove them")
        }
        return tokens
    }

    /// The members of an object of strings, in source order (`{"alg": "v4.public"}`).
    private func stringMembers(_ members: [JSONMember]) -> [Named<String>] {
        members.compactMap { member in
            ObjectReader.string(member.value, sink).map { Named(member.key, $0) }
        }
    }

    func decodeClientPolicy(_ node: JSONNode) -> Descriptor.ClientPolicy? {
        guard var reader = ObjectReader(node, sink, expected: "\"clientPolicy\"") else { return nil }
        defer { reader.finish() }
        return Descriptor.ClientPolicy(
            confidentialField: reader.member("confidentialField").flatMap { decodePointer($0) },
            allowedRedirectURIsField: reader.member("allowedRedirectURIsField").flatMap { decodePointer($0) },
            allowedScopesField: reader.member("allowedScopesField").flatMap { decodePointer($0) })
    }

    func decodeCallback(_ node: JSONNode) -> Descriptor.Callback? {
        guard var reader = ObjectReader(node, sink, expected: "\"callback\"") else { return nil }
        defer { reader.finish() }
        let base = Descriptor.Callback()
        let kinds = reader.member("redirectKinds").map { kindsNode in
            ObjectReader.strings(kindsNode, sink).compactMap { kind in
                if let known = RedirectKind(rawValue: kind) { return known }
                sink.error(
                    "unknown redirect kind \"\(kind.prefix(40))\"", at: kindsNode,
                    fixIt: "use \"custom_scheme\", \"https\" or \"loopback\"")
                return nil
            }
        }
        var callback = Descriptor.Callback(
            location: decodeCallbackLocation(&reader, default: base.location),
            code: reader.string("code") ?? base.code, state: reader.string("state") ?? base.state,
            iss: reader.string("iss"), error: reader.string("error") ?? base.error,
            errorCode: reader.string("errorCode"),
            errorDescription: reader.string("errorDescription") ?? base.errorDescription,
            redirectKinds: kinds ?? base.redirectKinds,
            user: reader.member("user").flatMap { decodeCallbackUser($0) },
            implicit: reader.member("implicit").flatMap { decodeImplicitSession($0) })
        callback.scope = reader.member("scope").flatMap { decodeCallbackScope($0) }
        return callback
    }
}
