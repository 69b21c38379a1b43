import LatchkeyDescriptor
import LatchkeyVocabulary

/// The spec literal's error mappings: `ErrorMappingSpec`, its rules and their member conditions.
extension SpecLiteral {
    static func errors(_ e: Descriptor.Errors) -> Expr {
        let kinds = ErrorKinds(declared: e.codes)
        return RuntimeConstruct.errorMappingSpec.call([
            "codePointers": .array(e.codeFields.map(Expr.string)),
            "messagePointers": .array(e.messageFields.map(Expr.string)),
            "successBodyErrorPointer": e.errorInSuccessBody.map(Expr.string),
            "statusPointer": e.statusField.map(Expr.string), "rules": .array(e.map.map { rule($0, kinds: kinds) }),
            "callbackRules": .array(e.callback.map { rule($0, kinds: kinds) }),
            "verificationRules": .array(
                e.verification.sorted { $0.name < $1.name }.map {
                    verificationRule(reason: $0.name, code: $0.value, kinds: kinds)
                }),
            "sessionEndedCodes": .array(e.sessionEndedCodes.map(Expr.string)),
            "sessionEndedEvents": .dictionary(e.sessionEndedEvents.map { ($0.name, Expr.string($0.value)) }),
        ])
    }

    static func rule(_ r: Descriptor.Errors.Rule, kinds: ErrorKinds) -> Expr {
        RuntimeConstruct.errorRule.call([
            "providerCode": r.providerCode.map(Expr.string),
            "providerCodePrefix": r.providerCodePrefix.map(Expr.string),
            "status": r.status.map(Expr.int), "requests": .array(r.requests.map(Expr.string)),
            "match": .array(
                r.match.map {
                    RuntimeConstruct.memberCondition.call(["pointer": .string($0.pointer), "value": .string($0.equals)])
                }),
            "code": .string(r.code), "kind": .term(kinds.kind(of: r.code)),
        ])
    }

    /// A row mapping a token verification failure (the rule's provider code) to a code.
    static func verificationRule(reason: String, code: String, kinds: ErrorKinds) -> Expr {
        RuntimeConstruct.errorRule.call([
            "providerCode": .string(reason), "code": .string(code), "kind": .term(kinds.kind(of: code)),
        ])
    }
}

extension RuntimeConstruct {
    static let errorMappingSpec = RuntimeConstruct(
        "ErrorMappingSpec", .qualified,
        [
            .always("codePointers"), .always("messagePointers"), .optional("successBodyErrorPointer"),
            .optional("statusPointer"), .unless("rules", .array([])), .unless("callbackRules", .array([])),
            .unless("verificationRules", .array([])), .unless("sessionEndedCodes", .array([])),
            .unless("sessionEndedEvents", .dictionary([])),
        ])
    static let errorRule = RuntimeConstruct(
        "ErrorMappingSpec.Rule", .initializer,
        [
            .optional("providerCode"), .optional("providerCodePrefix"), .optional("status"),
            .unless("requests", .array([])), .unless("match", .array([])), .always("code"), .always("kind"),
        ])
    static let memberCondition = RuntimeConstruct(
        "ErrorMappingSpec.MemberCondition", .initializer, [.always("pointer"), .always("value")])
}
