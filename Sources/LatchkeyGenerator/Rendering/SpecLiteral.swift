import LatchkeyDescriptor
import LatchkeyVocabulary

/// Builds the `ProviderSpec` literal a generated client holds: the descriptor, normalized.
///
/// Arguments equal to the runtime's defaults are left out so the literal reads like the descriptor.
enum SpecLiteral {
    typealias Expr = SwiftExpression
    typealias Arg = SwiftExpression.Argument

    static func make(_ d: Descriptor) -> Expr {
        var args: [Arg] = [
            Arg(label: "name", value: .string(d.name)), Arg(label: "displayName", value: .string(d.displayName)),
        ]
        if !d.inputs.isEmpty { args.append(Arg(label: "inputs", value: .array(d.inputs.map(input)))) }
        if !d.variables.isEmpty {
            args.append(
                Arg(label: "variables", value: .array(d.variables.map { parameter($0.name, .string($0.value)) })))
        }
        if let discovery = d.discovery { args.append(Arg(label: "discovery", value: self.discovery(discovery))) }
        if !d.headers.isEmpty { args.append(Arg(label: "commonHeaders", value: parameters(d.headers))) }
        if !d.tokenParameters.isEmpty {
            args.append(Arg(label: "extraTokenParameters", value: parameters(d.tokenParameters)))
        }
        if !d.requests.isEmpty {
            args.append(Arg(label: "requests", value: .dictionary(d.requests.map { ($0.name, request($0.value)) })))
        }
        args.append(Arg(label: "flows", value: flows(d.flows)))
        if !d.actions.isEmpty { args.append(Arg(label: "actions", value: .array(d.actions.map(action)))) }
        args.append(Arg(label: "errors", value: errors(d.errors)))
        args.append(Arg(label: "callback", value: callback(d.callback)))
        args.append(Arg(label: "session", value: session(d.session)))
        args.append(Arg(label: "user", value: user(d.user)))
        args.append(Arg(label: "tokens", value: tokens(d.tokens)))
        if d.clientPolicy.confidentialField != nil || d.clientPolicy.allowedRedirectURIsField != nil
            || d.clientPolicy.allowedScopesField != nil
        {
            args.append(
                Arg(
                    label: "clientPolicy",
                    value: .call(
                        "LatchkeyRuntime.ClientPolicy",
                        optionalArgs([
                            ("confidentialPointer", d.clientPolicy.confidentialField.map(Expr.string)),
                            ("allowedRedirectURIsPointer", d.clientPolicy.allowedRedirectURIsField.map(Expr.string)),
                            ("allowedScopesPointer", d.clientPolicy.allowedScopesField.map(Expr.string)),
                        ]))))
        }
        var senderArguments: [Arg] = []
        if d.dpop != .never || d.pushedAuthorization != nil {
            var constraint: [Arg] = []
            if d.dpop != .never { constraint.append(Arg(label: "dpop", value: .term(d.dpop))) }
            if let pushed = d.pushedAuthorization {
                constraint.append(
                    Arg(
                        label: "pushedAuthorization",
                        value: .call(
                            "LatchkeyRuntime.PushedAuthorizationSpec",
                            [
                                Arg(label: "url", value: template(pushed.url)),
                                Arg(label: "use", value: .term(pushed.use)),
                            ])))
            }
            senderArguments.append(
                Arg(label: "senderConstraint", value: .call("LatchkeyRuntime.SenderConstraintSpec", constraint)))
        }
        return .call(
            "LatchkeyRuntime.ProviderSpec",
            args + clientSecretArguments(d) + captureArguments(d) + senderArguments
                + SpecLiteral.accessTokenClaimsArguments(d) + SpecLiteralServer.arguments(d))
    }

    static func optionalArgs(_ pairs: [(String, Expr?)]) -> [Arg] {
        pairs.compactMap { label, value in value.map { Arg(label: label, value: $0) } }
    }

    /// A template as generated code holds it: its parsed segments, every string an escaped literal, so the
    /// runtime never parses descriptor syntax.
    /// A template of one segment is that segment's `.literal(...)` or `.variable(...)` (the template's own
    /// factories); any other is `.init(segments: [...])`.
    static func template(_ t: ValueTemplate) -> Expr {
        switch t.segments.first {
        case .literal(let text)? where t.segments.count == 1: .call(".literal", [Arg(label: nil, value: .string(text))])
        case .variable(let name)? where t.segments.count == 1:
            .call(".variable", [Arg(label: nil, value: .string(name))])
        default: .call(".init", [Arg(label: "segments", value: .array(t.segments.map(segment)))])
        }
    }

    /// One segment of a template: `.literal("...")`, `.variable("name")` or `.firstOf(["a", "b"])`.
    static func segment(_ s: ValueTemplate.Segment) -> Expr {
        switch s {
        case .literal(let text): .call(".literal", [Arg(label: nil, value: .string(text))])
        case .variable(let name): .call(".variable", [Arg(label: nil, value: .string(name))])
        case .firstOf(let names): .call(".firstOf", [Arg(label: nil, value: .array(names.map(Expr.string)))])
        }
    }

    static func value(_ v: Value) -> Expr {
        switch v {
        case .string(let t): .call(".string", [Arg(label: nil, value: template(t))])
        case .number(let lexeme): .call(".number", [Arg(label: nil, value: .string(lexeme))])
        case .bool(let flag): .call(".bool", [Arg(label: nil, value: .bool(flag))])
        case .null: .symbol(".null")
        case .array(let items): .call(".array", [Arg(label: nil, value: .array(items.map(value)))])
        case .object(let members):
            .call(
                ".object",
                [
                    Arg(
                        label: nil,
                        value: .array(
                            members.map {
                                .call(
                                    ".init",
                                    [Arg(label: nil, value: .string($0.name)), Arg(label: nil, value: value($0.value))])
                            })
                    )
                ])
        }
    }

    static func parameter(_ name: String, _ v: Value) -> Expr {
        .call(".init", [Arg(label: nil, value: .string(name)), Arg(label: nil, value: value(v))])
    }

    static func parameters(_ list: [Named<Value>]) -> Expr { .array(list.map { parameter($0.name, $0.value) }) }

    static func input(_ i: Descriptor.Input) -> Expr {
        var args = [Arg(label: "name", value: .string(i.name))]
        if i.type != .string { args.append(Arg(label: "kind", value: .term(i.type))) }
        if !i.required { args.append(Arg(label: "isRequired", value: .bool(false))) }
        if let value = i.defaultValue { args.append(Arg(label: "defaultValue", value: .string(value))) }
        if i.trimTrailingSlash { args.append(Arg(label: "trimsTrailingSlash", value: .bool(true))) }
        if !i.rejections.isEmpty {
            args.append(
                Arg(
                    label: "rejections",
                    value: .array(
                        i.rejections.map { r in
                            let test: Expr =
                                if let prefix = r.prefix {
                                    .call(".prefix", [Arg(label: nil, value: .string(prefix))])
                                } else {
                                    .call(
                                        ".jwtClaim",
                                        [
                                            Arg(label: "name", value: .string(r.jwtClaim ?? "")),
                                            Arg(label: "equals", value: .string(r.equals ?? "")),
                                        ])
                                }
                            return .call(
                                ".init",
                                [
                                    Arg(label: "test", value: test), Arg(label: "code", value: .string(r.code)),
                                    Arg(label: "message", value: .string(r.message)),
                                ])
                        })))
        }
        if let environment = i.environment { args.append(Arg(label: "environmentKey", value: .string(environment))) }
        if let requirement = i.requirement {
            args.append(Arg(label: "requirement", value: SpecLiteralServer.requirement(requirement)))
        }
        if !i.values.isEmpty { args.append(Arg(label: "allowedValues", value: .array(i.values.map { .string($0) }))) }
        return .call(".init", args)
    }

    static func discovery(_ d: Descriptor.Discovery) -> Expr {
        switch d {
        case .openID(let issuer, let documentURL):
            .call(
                ".openID",
                [Arg(label: "issuer", value: template(issuer))]
                    + (documentURL.map { [Arg(label: "documentURL", value: template($0))] } ?? []))
        case .custom(let request, let members):
            .call(
                ".custom",
                [
                    Arg(label: "request", value: .string(request)),
                    Arg(
                        label: "members",
                        value: .array(
                            members.map {
                                .call(
                                    ".init",
                                    [
                                        Arg(label: "name", value: .string($0.name)),
                                        Arg(label: "pointer", value: .string($0.value)),
                                    ])
                            })),
                ])
        }
    }

    static func request(_ r: Descriptor.Request) -> Expr {
        var args = [Arg(label: "method", value: .string(r.method)), Arg(label: "url", value: template(r.url))]
        if !r.query.isEmpty { args.append(Arg(label: "query", value: parameters(r.query))) }
        if !r.headers.isEmpty { args.append(Arg(label: "headers", value: parameters(r.headers))) }
        if r.encoding != .none { args.append(Arg(label: "encoding", value: .term(r.encoding))) }
        if !r.body.isEmpty { args.append(Arg(label: "body", value: parameters(r.body))) }
        if r.clientAuthentication != .none {
            args.append(Arg(label: "clientAuthentication", value: .term(r.clientAuthentication)))
        }
        if r.authorization != .none { args.append(Arg(label: "authorization", value: .term(r.authorization))) }
        if r.response != .none { args.append(Arg(label: "response", value: .term(r.response))) }
        if !r.ignoreErrorStatuses.isEmpty {
            args.append(Arg(label: "ignoredErrorStatuses", value: .array(r.ignoreErrorStatuses.map(Expr.int))))
        }
        args += SpecLiteralVersion2.requestArguments(r)
        return .call("LatchkeyRuntime.RequestSpec", args)
    }

    static func flows(_ f: Descriptor.Flows) -> Expr {
        var args: [Arg] = []
        if let p = f.password {
            args.append(
                Arg(
                    label: "password",
                    value: .call(
                        "LatchkeyRuntime.PasswordFlowSpec",
                        [
                            Arg(label: "request", value: .string(p.request)),
                            Arg(label: "identifierLabel", value: .string(p.identifierLabel)),
                        ])))
        }
        if let c = f.authorizationCode {
            var a = [
                Arg(label: "authorizeURL", value: template(c.authorizeURL)),
                Arg(label: "authorizeQuery", value: parameters(c.query)),
                Arg(label: "exchangeRequest", value: .string(c.exchange)),
            ]
            if c.nonce { a.append(Arg(label: "usesNonce", value: .bool(true))) }
            if !c.returnsState { a.append(Arg(label: "returnsState", value: .bool(false))) }
            if !c.scopes.isEmpty { a.append(Arg(label: "defaultScopes", value: .array(c.scopes.map(Expr.string)))) }
            if c.scopeSeparator != " " { a.append(Arg(label: "scopeSeparator", value: .string(c.scopeSeparator))) }
            if c.fetchUser { a.append(Arg(label: "fetchesUser", value: .bool(true))) }
            if c.pendingLifetime != 600 { a.append(Arg(label: "pendingLifetime", value: .int(c.pendingLifetime))) }
            args.append(Arg(label: "authorizationCode", value: .call("LatchkeyRuntime.AuthorizationCodeFlowSpec", a)))
        }
        if let r = f.refresh {
            var a = [Arg(label: "request", value: .string(r.request))]
            if !r.reuseCodes.isEmpty {
                a.append(Arg(label: "reuseCodes", value: .array(r.reuseCodes.map(Expr.string))))
            }
            args.append(Arg(label: "refresh", value: .call("LatchkeyRuntime.RefreshFlowSpec", a)))
        }
        if let s = f.signOut {
            args.append(
                Arg(
                    label: "signOut",
                    value: .call(
                        "LatchkeyRuntime.SignOutFlowSpec",
                        optionalArgs([
                            ("request", s.request.map(Expr.string)),
                            ("scopes", s.scopes.isEmpty ? nil : .array(s.scopes.map(Expr.string))),
                            ("defaultScope", s.defaultScope.map(Expr.string)),
                            (
                                "keepsSessionScopes",
                                s.keepSessionScopes.isEmpty ? nil : .array(s.keepSessionScopes.map(Expr.string))
                            ),
                        ]))))
        }
        if let u = f.userInfo {
            args.append(
                Arg(
                    label: "userInfo",
                    value: .call("LatchkeyRuntime.UserInfoFlowSpec", [Arg(label: "request", value: .string(u))])))
        }
        if let d = f.deviceCode {
            args.append(
                Arg(
                    label: "deviceCode",
                    value: .call(
                        "LatchkeyRuntime.DeviceCodeFlowSpec",
                        [
                            Arg(label: "authorizationRequest", value: .string(d.authorization)),
                            Arg(label: "tokenRequest", value: .string(d.token)),
                        ])))
        }
        args += serverFlows(f)
        return .call("LatchkeyRuntime.FlowSet", args)
    }

    static func action(_ a: Named<Descriptor.Action>) -> Expr {
        .call(
            ".init",
            [
                Arg(label: "name", value: .string(a.name)),
                Arg(label: "request", value: .string(a.value.request)),
                Arg(
                    label: "parameters",
                    value: .array(
                        a.value.parameters.map { p in
                            var args = [Arg(label: "name", value: .string(p.name))]
                            if p.value.type != .string { args.append(Arg(label: "type", value: .term(p.value.type))) }
                            if p.value.optional { args.append(Arg(label: "isOptional", value: .bool(true))) }
                            if let min = p.value.minLength {
                                args.append(Arg(label: "minimumLength", value: .int(min)))
                            }
                            if !p.value.values.isEmpty {
                                args.append(Arg(label: "allowedValues", value: .array(p.value.values.map(Expr.string))))
                            }
                            return .call(".init", args)
                        })),
            ]
                + optionalArgs([
                    ("linkPKCE", a.value.pkce.map(linkPKCE)), ("resultPointer", a.value.returns.map(Expr.string)),
                    ("event", a.value.event.map(Expr.string)),
                ]) + actionStepArguments(a.value))
    }

    static func rule(_ r: Descriptor.Errors.Rule, kinds: ErrorKinds) -> Expr {
        var args =
            optionalArgs([
                ("providerCode", r.providerCode.map(Expr.string)),
                ("providerCodePrefix", r.providerCodePrefix.map(Expr.string)),
                ("status", r.status.map(Expr.int)),
                ("requests", r.requests.isEmpty ? nil : .array(r.requests.map(Expr.string))),
            ]) + matchArguments(r)
        args.append(Arg(label: "code", value: .string(r.code)))
        args.append(Arg(label: "kind", value: .term(kinds.kind(of: r.code))))
        return .call(".init", args)
    }

    /// A row mapping a token verification failure (the rule's provider code) to a code.
    static func verificationRule(reason: String, code: String, kinds: ErrorKinds) -> Expr {
        .call(
            ".init",
            [
                Arg(label: "providerCode", value: .string(reason)), Arg(label: "code", value: .string(code)),
                Arg(label: "kind", value: .term(kinds.kind(of: code))),
            ])
    }

    static func errors(_ e: Descriptor.Errors) -> Expr {
        let kinds = ErrorKinds(declared: e.codes)
        return .call(
            "LatchkeyRuntime.ErrorMappingSpec",
            optionalArgs([
                ("codePointers", .array(e.codeFields.map(Expr.string))),
                ("messagePointers", .array(e.messageFields.map(Expr.string))),
                ("successBodyErrorPointer", e.errorInSuccessBody.map(Expr.string)),
                ("statusPointer", e.statusField.map(Expr.string)),
                ("rules", e.map.isEmpty ? nil : .array(e.map.map { rule($0, kinds: kinds) })),
                ("callbackRules", e.callback.isEmpty ? nil : .array(e.callback.map { rule($0, kinds: kinds) })),
                (
                    "verificationRules",
                    e.verification.isEmpty
                        ? nil
                        : .array(
                            e.verification.sorted { $0.name < $1.name }.map {
                                verificationRule(reason: $0.name, code: $0.value, kinds: kinds)
                            })
                ),
                (
                    "sessionEndedCodes",
                    e.sessionEndedCodes.isEmpty ? nil : .array(e.sessionEndedCodes.map(Expr.string))
                ),
                (
                    "sessionEndedEvents",
                    e.sessionEndedEvents.isEmpty
                        ? nil : .dictionary(e.sessionEndedEvents.map { ($0.name, Expr.string($0.value)) })
                ),
            ]))
    }

    static func callback(_ c: Descriptor.Callback) -> Expr {
        .call(
            "LatchkeyRuntime.CallbackSpec",
            optionalArgs([
                ("location", .term(c.location)),
                ("codeParameter", .string(c.code)),
                ("stateParameter", .string(c.state)),
                ("issuerParameter", c.iss.map(Expr.string)),
                ("errorParameter", .string(c.error)),
                ("errorCodeParameter", c.errorCode.map(Expr.string)),
                ("errorDescriptionParameter", .string(c.errorDescription)),
                ("allowedRedirectKinds", .array(c.redirectKinds.map(Expr.term))),
                ("implicitSession", c.implicit.map(implicitSession)),
                ("user", c.user.map(SpecLiteralVersion2.callbackUser)),
                ("scopeParameter", c.scope.map(Expr.string)),
            ]))
    }

    static func pointer(_ p: String?) -> Expr { p.map(Expr.string) ?? .none }

    static func session(_ s: Descriptor.SessionFields) -> Expr {
        .call(
            "LatchkeyRuntime.SessionMapping",
            [
                Arg(label: "accessToken", value: .string(s.accessToken)),
                Arg(label: "refreshToken", value: pointer(s.refreshToken)),
                Arg(label: "idToken", value: pointer(s.idToken)),
                Arg(label: "tokenType", value: pointer(s.tokenType)),
                Arg(label: "expiresIn", value: pointer(s.expiresIn)),
                Arg(label: "expiresAt", value: pointer(s.expiresAt)),
                Arg(label: "scope", value: pointer(s.scope)),
                Arg(label: "user", value: pointer(s.user)),
            ])
    }

    static func user(_ u: Descriptor.UserFields) -> Expr {
        .call(
            "LatchkeyRuntime.UserMapping",
            [
                Arg(label: "id", value: .string(u.id)), Arg(label: "email", value: pointer(u.email)),
                Arg(label: "name", value: pointer(u.name)), Arg(label: "role", value: pointer(u.role)),
                Arg(label: "scopes", value: pointer(u.scopes)),
            ] + userNamePartsArguments(u))
    }

    static func tokens(_ t: Descriptor.Tokens) -> Expr {
        .call(
            "LatchkeyRuntime.TokenSpec",
            optionalArgs([
                ("accessTokenFormat", .term(t.accessToken)),
                ("validatesIDToken", t.validateIDToken ? .bool(true) : nil),
                ("jwksURL", t.jwks.map(template)),
                ("issuer", t.issuer.map(template)),
                ("accessTokenKeysURL", t.accessTokenKeys.map(template)),
                ("audience", t.audience.map(template)),
                ("implicitAssertion", t.implicitAssertion.map(Expr.string)),
                ("issuerValidation", t.issuerValidation == .exact ? nil : .term(t.issuerValidation)),
                ("footer", t.footer.isEmpty ? nil : stringDictionary(t.footer)),
                ("requiredClaims", t.requiredClaims.isEmpty ? nil : .array(t.requiredClaims.map(Expr.string))),
                ("claimValues", t.claimValues.isEmpty ? nil : stringDictionary(t.claimValues)),
                ("userFromAccessToken", t.userFromAccessToken ? .bool(true) : nil),
                (
                    "userDocumentMustMatch",
                    t.userDocumentMustMatch.isEmpty ? nil : .array(t.userDocumentMustMatch.map(Expr.string))
                ),
            ]))
    }

    /// A `[String: String]` literal with its keys sorted (deterministic output).
    static func stringDictionary(_ members: [Named<String>]) -> Expr {
        .dictionary(members.sorted { $0.name < $1.name }.map { (key: $0.name, value: .string($0.value)) })
    }
}
