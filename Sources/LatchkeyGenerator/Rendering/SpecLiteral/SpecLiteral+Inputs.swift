import LatchkeyDescriptor
import LatchkeyVocabulary

/// The spec literal's inputs: `InputSpec`, its rejections and its requirement.
extension SpecLiteral {
    static func input(_ i: Descriptor.Input) -> Expr {
        RuntimeConstruct.inputSpec.call([
            "name": .string(i.name), "kind": .term(i.type), "isRequired": .bool(i.required),
            "defaultValue": i.defaultValue.map(Expr.string), "trimsTrailingSlash": .bool(i.trimTrailingSlash),
            "rejections": .array(
                i.rejections.map { r in
                    RuntimeConstruct.inputRejection.call([
                        "test": inputTest(prefix: r.prefix, jwtClaim: r.jwtClaim, equals: r.equals),
                        "code": .string(r.code), "message": .string(r.message),
                    ])
                }),
            "environmentKey": i.environment.map(Expr.string), "requirement": i.requirement.map(requirement),
            "allowedValues": .array(i.values.map(Expr.string)),
        ])
    }

    /// An input's requirement.
    static func requirement(_ r: Descriptor.InputRequirement) -> Expr {
        RuntimeConstruct.inputRequirement.call([
            "anyOf": .array(r.anyOf.map { inputTest(prefix: $0.prefix, jwtClaim: $0.jwtClaim, equals: $0.equals) }),
            "code": .string(r.code), "message": .string(r.message),
        ])
    }

    /// A test on an input's value: `.prefix("...")`, else `.jwtClaim(name:equals:)`.
    static func inputTest(prefix: String?, jwtClaim: String?, equals: String?) -> Expr {
        if let prefix { return RuntimeConstruct.prefixTest.call(["prefix": .string(prefix)]) }
        return RuntimeConstruct.jwtClaimTest.call(["name": .string(jwtClaim ?? ""), "equals": .string(equals ?? "")])
    }
}

extension RuntimeConstruct {
    static let inputSpec = RuntimeConstruct(
        "InputSpec", .initializer,
        [
            .always("name"), .unless("kind", .symbol(".string")), .unless("isRequired", .bool(true)),
            .optional("defaultValue"), .unless("trimsTrailingSlash", .bool(false)), .unless("rejections", .array([])),
            .optional("environmentKey"), .optional("requirement"), .unless("allowedValues", .array([])),
        ])
    static let inputRejection = RuntimeConstruct(
        "InputSpec.Rejection", .initializer, [.always("test"), .always("code"), .always("message")])
    static let inputRequirement = RuntimeConstruct(
        "InputSpec.Requirement", .initializer, [.always("anyOf"), .always("code"), .always("message")])
    static let prefixTest = RuntimeConstruct("InputSpec.Rejection.Test", .member("prefix"), [.unlabeled("prefix")])
    static let jwtClaimTest = RuntimeConstruct(
        "InputSpec.Rejection.Test", .member("jwtClaim"), [.always("name"), .always("equals")])
}
