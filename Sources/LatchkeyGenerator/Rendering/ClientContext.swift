import LatchkeyDescriptor
import LatchkeyVocabulary

/// Builds the values the client template shows, from a descriptor.
enum ClientContext {
    static func make(_ d: Descriptor, fileName: String) -> TemplateContext {
        let flows = d.flows
        var context = TemplateContext()
        context["name"] = .text(d.name)
        context["fileName"] = .text(fileName)
        context["displayName"] = .text(d.displayName)
        context["summary"] = .text(d.summary ?? "")
        context["documentation"] = .text(d.documentation ?? "")
        context["sources"] = .list(d.sources.map { TemplateContext(["url": .text($0)]) })
        context["typeName"] = .text(GeneratedNames.client(d.swiftName))
        context["swiftName"] = .text(d.swiftName)
        // The decoder refuses a descriptor with no free button name.
        context["signInButtonName"] = .text(GeneratedNames.signInButton(d.swiftName) ?? "")
        context["spec"] = .code(GeneratedCode(SpecLiteral.make(d).printed(indent: 4)))
        context["inputs"] = .list(d.inputs.map(input))
        context["inputEnums"] = .list(d.inputs.filter { !$0.values.isEmpty }.map(inputEnum))
        context["hasPassword"] = .bool(flows.password != nil)
        context["identifierLabel"] = .text(flows.password?.identifierLabel ?? "email")
        context["hasBrowser"] = .bool(flows.authorizationCode != nil)
        context["hasRefresh"] = .bool(flows.refresh != nil)
        context["hasSignOut"] = .bool(flows.signOut != nil)
        context["signOutScopes"] = .list(
            (flows.signOut?.scopes ?? []).map {
                TemplateContext(["scope": .text($0), "caseName": .text(SwiftNames.lowerCamelCase($0))])
            })
        let defaultScope = flows.signOut?.defaultScope ?? flows.signOut?.scopes.first ?? ""
        context["defaultScopeCase"] = .text(SwiftNames.lowerCamelCase(defaultScope))
        context["hasUserInfo"] = .bool(flows.userInfo != nil)
        context["hasServerHandoff"] = .bool(d.tokens.accessToken.behaviour.offersServerHandoff)
        context["hasDeviceCode"] = .bool(flows.deviceCode != nil)
        context["hasClientCredentials"] = .bool(flows.clientCredentials != nil)
        context["hasEndSession"] = .bool(flows.endSession != nil)
        context["hasClientSecret"] = .bool(d.requests.contains { $0.value.clientAuthentication != .none })
        context["clientSecretRequired"] = .bool(d.clientSecret?.required ?? false)
        context["clientSecretReason"] = .text(d.clientSecret?.reason ?? "")
        // The action-method partial reads `isSubClient` (here false, true in each group) and each action's `wraps`.
        context["isSubClient"] = .bool(false)
        context["actions"] = .list(
            d.actions.filter { $0.value.group == nil && !hasCeremony($0.value) }.map { action($0, indentation: 4) })
        context["actionGroups"] = .list(d.actionGroups.map { actionGroup($0, in: d) })
        context["ceremonyExtensions"] = .list(ceremonyExtensions(d))
        context["hasPasskeyCeremony"] = .bool(d.actions.contains { hasCeremony($0.value) })
        context["hasAccessTokenClaims"] = .bool(d.accessTokenClaims != nil)
        context["hasAssurance"] = .bool(d.accessTokenClaims?.assurance.map { $0.group == nil } ?? false)
        context["browserParameters"] = .list(
            (flows.authorizationCode?.parameters ?? []).map { parameter(action: "authorization", $0) })
        context["flowSummary"] = .text(flowSummary(d))
        context["isServer"] = .bool(d.audience == .server)
        return context
    }

    static func flowSummary(_ d: Descriptor) -> String {
        var names: [String] = []
        if d.flows.password != nil { names.append("password sign-in") }
        if let code = d.flows.authorizationCode {
            // PKCE only when the authorization request sends a challenge.
            let sendsChallenge = code.query.contains { parameter in
                parameter.value.templates.contains { $0.variables.contains("code_challenge") }
            }
            names.append("browser sign-in (authorization code\(sendsChallenge ? " with PKCE" : ""))")
        }
        if d.flows.refresh != nil { names.append("refresh") }
        if d.flows.signOut != nil { names.append("sign-out") }
        if d.flows.userInfo != nil { names.append("user info") }
        if d.flows.deviceCode != nil { names.append("device authorization") }
        if d.flows.clientCredentials != nil { names.append("client credentials") }
        if d.flows.endSession != nil { names.append("RP-initiated logout") }
        names += d.actions.map { SwiftNames.lowerCamelCase($0.name) }
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }

    static func input(_ i: Descriptor.Input) -> TemplateContext {
        let optional = !i.required || i.defaultValue != nil || i.environment != nil
        let isEnum = !i.values.isEmpty
        let baseType =
            isEnum ? SwiftNames.inputEnumName(i.name) : i.type == .url ? "Foundation.URL" : "Swift.String"
        var summary = i.summary ?? "The \(i.name) input."
        if let environment = i.environment { summary += " When nil, read from `\(environment)`." }
        if let value = i.defaultValue { summary += " Defaults to `\(value)`." }
        return TemplateContext([
            "name": .text(i.name),
            "label": .text(SwiftNames.lowerCamelCase(i.name)),
            "summary": .text(summary),
            "swiftType": .code(GeneratedCode(baseType + (optional ? "?" : ""))),
            "isOptional": .bool(optional),
            "isURL": .bool(i.type == .url),
            "isEnum": .bool(isEnum),
        ])
    }

    /// One action, its method declared at `indentation` (4 in the client, 8 in a sub-client).
    static func action(_ a: Named<Descriptor.Action>, indentation: Int = 4) -> TemplateContext {
        let parameters = a.value.parameters.map { parameter(action: a.name, $0) }
        let method = a.value.method ?? SwiftNames.lowerCamelCase(a.name)
        // `public func NAME() async throws(LatchkeyRuntime.AuthError) -> LatchkeyRuntime.ActionResult {` is
        // 88 characters besides the name and indentation; longer lines are wrapped as swift-format wraps them.
        let signatureLength = method.count + 88
        return TemplateContext([
            "name": .text(a.name),
            "actionName": .text(a.name),
            "method": .text(method),
            "wraps": .bool(signatureLength + indentation > 120),
            // Both placements, for custom templates written before `wraps`.
            "wrapsAtTop": .bool(signatureLength + 4 > 120),
            "wrapsInGroup": .bool(signatureLength + 8 > 120),
            "summary": .text(a.value.summary ?? "Performs the \(a.name) action."),
            "parameters": .list(parameters),
        ])
    }

    static func actionGroup(_ g: Named<Descriptor.ActionGroup>, in d: Descriptor) -> TemplateContext {
        TemplateContext([
            "property": .text(g.name),
            "typeName": .text(g.value.swiftName),
            "summary": .text(g.value.summary ?? "The \(g.name) calls."),
            "isSubClient": .bool(true),
            "actions": .list(
                d.actions.filter { $0.value.group == g.name && !hasCeremony($0.value) }.map {
                    action($0, indentation: 8)
                }),
            "hasAssurance": .bool(d.accessTokenClaims?.assurance?.group == g.name),
        ])
    }

    /// Whether an action's `then` runs a passkey ceremony: its method takes an authenticator, and is generated
    /// in an extension with its Apple `presentationAnchor:` overload beside it.
    static func hasCeremony(_ a: Descriptor.Action) -> Bool { a.then.contains { $0.ceremony != nil } }

    /// The extensions holding the ceremony actions: the client's, then each group's sub-client's.
    static func ceremonyExtensions(_ d: Descriptor) -> [TemplateContext] {
        let client = GeneratedNames.client(d.swiftName)
        var owners: [(type: String, group: String?)] = [(client, nil)]
        owners += d.actionGroups.map { ("\(client).\($0.value.swiftName)", $0.name) }
        return owners.compactMap { owner in
            let actions = d.actions.filter { $0.value.group == owner.group && hasCeremony($0.value) }
            guard !actions.isEmpty else { return nil }
            return TemplateContext([
                // Both names are Swift identifiers the decoder checked.
                "extendedType": .code(GeneratedCode(owner.type)),
                "actions": .list(actions.map { action($0) }),
            ])
        }
    }

    /// One parameter of an action (or of the browser sign-in, `action` `authorization`).
    static func parameter(action: String, _ p: Named<Descriptor.Action.Parameter>) -> TemplateContext {
        let type: String =
            switch p.value.type {
            case .bool: "Swift.Bool"
            case .int: "Swift.Int"
            case .url: "Foundation.URL"
            case .string: "Swift.String"
            case .object: "[Swift.String: LatchkeyRuntime.JSON]"
            case .strings: "[Swift.String]"
            case .uuid: "Foundation.UUID"
            }
        var summary = p.value.summary ?? "The \(p.name) parameter."
        if let min = p.value.minLength { summary += " At least \(min) characters." }
        // A parameter with `values` takes a generated enum whose raw values are the wire strings.
        let enumName = p.value.values.isEmpty ? nil : ValueEnumNames.enumName(action: action, parameter: p.name)
        // A `strings` parameter with `values` takes an array of that enum.
        let isList = p.value.type == .strings
        let valueType = enumName.map { isList ? "[\($0)]" : $0 } ?? type
        let cases = p.value.values.map { value in
            TemplateContext(["value": .text(value), "caseName": .text(ValueEnumNames.caseName(value))])
        }
        return TemplateContext([
            "name": .text(p.name),
            "label": .text(SwiftNames.lowerCamelCase(p.name)),
            "summary": .text(summary),
            "swiftType": .code(GeneratedCode(valueType + (p.value.optional ? "?" : ""))),
            "isOptional": .bool(p.value.optional),
            "case": .code(GeneratedCode(SwiftExpression.term(p.value.type).singleLine)),
            "rawValue": .code(GeneratedCode(enumName == nil ? "" : isList ? ".map(\\.rawValue)" : ".rawValue")),
            "hasValues": .bool(enumName != nil),
            "enumName": .text(enumName ?? ""),
            "values": .list(cases),
        ])
    }
}
