import LatchkeyDescriptor
import LatchkeyVocabulary

/// Builds the `ProviderSpec` literal a generated client holds: the descriptor, normalized.
///
/// Each spec type's literal is built by one function beside the ``RuntimeConstruct`` that names the type, its
/// labels and its defaults; arguments equal to the runtime's defaults are left out so the literal reads like the
/// descriptor.
enum SpecLiteral {
    typealias Expr = SwiftExpression

    static func make(_ d: Descriptor) -> Expr {
        RuntimeConstruct.providerSpec.call([
            "name": .string(d.name), "displayName": .string(d.displayName),
            "inputs": .array(d.inputs.map(input)),
            "variables": .array(d.variables.map { parameter($0.name, .string($0.value)) }),
            "discovery": d.discovery.map(discovery), "commonHeaders": parameters(d.headers),
            "extraTokenParameters": parameters(d.tokenParameters),
            "requests": .dictionary(d.requests.map { ($0.name, request($0.value)) }), "flows": flows(d.flows),
            "actions": .array(d.actions.map(action)), "errors": errors(d.errors), "callback": callback(d.callback),
            "session": session(d.session), "user": user(d.user), "tokens": tokens(d.tokens),
            "clientPolicy": clientPolicy(d.clientPolicy), "clientSecret": clientSecret(d.clientSecret),
            "captures": .array(d.captures.map(capture)), "senderConstraint": senderConstraint(d),
            "accessTokenClaims": d.accessTokenClaims.map(accessTokenClaims), "audience": .term(d.audience),
        ])
    }

    static func clientPolicy(_ p: Descriptor.ClientPolicy) -> Expr {
        RuntimeConstruct.clientPolicy.call([
            "confidentialPointer": p.confidentialField.map(Expr.string),
            "allowedRedirectURIsPointer": p.allowedRedirectURIsField.map(Expr.string),
            "allowedScopesPointer": p.allowedScopesField.map(Expr.string),
        ])
    }

    /// A requirement for a descriptor whose secret is required, else `nil`.
    static func clientSecret(_ secret: Descriptor.ClientSecret?) -> Expr? {
        guard let secret, secret.required else { return nil }
        return RuntimeConstruct.clientSecretRequirement.call(["reason": .string(secret.reason ?? "")])
    }

    static func capture(_ capture: Named<Descriptor.Capture>) -> Expr {
        RuntimeConstruct.captureSpec.call([
            "name": .string(capture.name), "request": capture.value.request.map(Expr.string),
            "pointer": capture.value.pointer.map(Expr.string), "header": capture.value.header.map(Expr.string),
        ])
    }

    static func senderConstraint(_ d: Descriptor) -> Expr {
        RuntimeConstruct.senderConstraintSpec.call([
            "dpop": .term(d.dpop),
            "pushedAuthorization": d.pushedAuthorization.map {
                RuntimeConstruct.pushedAuthorizationSpec.call(["url": template($0.url), "use": .term($0.use)])
            },
        ])
    }
}

extension RuntimeConstruct {
    static let providerSpec = RuntimeConstruct(
        "ProviderSpec", .qualified,
        [
            .always("name"), .always("displayName"), .unless("inputs", .array([])), .unless("variables", .array([])),
            .optional("discovery"), .unless("commonHeaders", .array([])), .unless("extraTokenParameters", .array([])),
            .unless("requests", .dictionary([])), .always("flows"), .unless("actions", .array([])), .always("errors"),
            .always("callback"), .always("session"), .always("user"), .always("tokens"),
            .unless("clientPolicy", clientPolicy.call()), .optional("clientSecret"), .unless("captures", .array([])),
            .unless("senderConstraint", senderConstraintSpec.call()), .optional("accessTokenClaims"),
            .unless("audience", .symbol(".app")),
        ])
    static let clientPolicy = RuntimeConstruct(
        "ClientPolicy", .qualified,
        [.optional("confidentialPointer"), .optional("allowedRedirectURIsPointer"), .optional("allowedScopesPointer")])
    static let clientSecretRequirement = RuntimeConstruct(
        "ClientSecretRequirement", .qualified, [.unless("reason", .string(""))])
    static let captureSpec = RuntimeConstruct(
        "CaptureSpec", .initializer, [.always("name"), .optional("request"), .optional("pointer"), .optional("header")])
    static let senderConstraintSpec = RuntimeConstruct(
        "SenderConstraintSpec", .qualified, [.unless("dpop", .symbol(".never")), .optional("pushedAuthorization")])
    static let pushedAuthorizationSpec = RuntimeConstruct(
        "PushedAuthorizationSpec", .qualified, [.always("url"), .always("use")])
}
