import LatchkeyDescriptor
import LatchkeyVocabulary

/// The spec literal's actions: `ActionSpec`, its parameters, its PKCE link and its follow-ups.
extension SpecLiteral {
    static func action(_ a: Named<Descriptor.Action>) -> Expr {
        RuntimeConstruct.actionSpec.call([
            "name": .string(a.name), "request": .string(a.value.request),
            "parameters": .array(a.value.parameters.map(actionParameter)), "linkPKCE": a.value.pkce.map(linkPKCE),
            "resultPointer": a.value.returns.map(Expr.string), "event": a.value.event.map(Expr.string),
            "followUps": .array(a.value.then.map(followUp)),
        ])
    }

    /// One step of an action's `then`, with the passkey ceremony run before it, if any.
    static func followUp(_ step: Descriptor.ActionFollowUp) -> Expr {
        RuntimeConstruct.actionFollowUpSpec.call([
            "action": .string(step.action), "arguments": stringDictionary(step.arguments),
            "ceremony": step.ceremony.map { ceremony in
                RuntimeConstruct.passkeyCeremonySpec.call([
                    // The kind is one of the generator's own case names, never descriptor text.
                    "kind": ceremony.kind == .registration ? .symbol(".registration") : .symbol(".assertion"),
                    "optionsPointer": .string(ceremony.options), "credentialParameter": .string(ceremony.credential),
                ])
            },
        ])
    }

    static func actionParameter(_ p: Named<Descriptor.Action.Parameter>) -> Expr {
        RuntimeConstruct.actionParameter.call([
            "name": .string(p.name), "type": .term(p.value.type), "isOptional": .bool(p.value.optional),
            "minimumLength": p.value.minLength.map(Expr.int), "allowedValues": .array(p.value.values.map(Expr.string)),
        ])
    }

    /// `LinkPKCESpec(...)` for an action's `pkce`.
    static func linkPKCE(_ p: Descriptor.LinkPKCE) -> Expr {
        RuntimeConstruct.linkPKCESpec.call([
            "method": .string(p.method), "redirects": .array(p.redirects.map(Expr.string)),
            "lifetime": p.lifetime.map(Expr.int), "event": p.event.map(Expr.string),
            "when": .array(p.when.map(Expr.string)),
        ])
    }
}

extension RuntimeConstruct {
    static let actionSpec = RuntimeConstruct(
        "ActionSpec", .initializer,
        [
            .always("name"), .always("request"), .always("parameters"), .optional("linkPKCE"),
            .optional("resultPointer"), .optional("event"), .unless("followUps", .array([])),
        ])
    static let actionParameter = RuntimeConstruct(
        "ActionSpec.Parameter", .initializer,
        [
            .always("name"), .unless("type", .symbol(".string")), .unless("isOptional", .bool(false)),
            .optional("minimumLength"), .unless("allowedValues", .array([])),
        ])
    static let linkPKCESpec = RuntimeConstruct(
        "LinkPKCESpec", .qualified,
        [
            .unless("method", .string("S256")), .unless("redirects", .array([])), .optional("lifetime"),
            .optional("event"), .unless("when", .array([])),
        ])
    static let actionFollowUpSpec = RuntimeConstruct(
        "ActionFollowUpSpec", .qualified, [.always("action"), .always("arguments"), .optional("ceremony")])
    static let passkeyCeremonySpec = RuntimeConstruct(
        "PasskeyCeremonySpec", .qualified,
        [.always("kind"), .always("optionsPointer"), .always("credentialParameter")])
}
