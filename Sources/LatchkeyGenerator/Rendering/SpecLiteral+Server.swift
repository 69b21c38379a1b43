import LatchkeyDescriptor
import LatchkeyVocabulary

/// The spec literal's parts for server-side clients and list answers: `audience`, an input's `require`, a
/// request's `pagination`.
enum SpecLiteralServer {
    typealias Expr = SwiftExpression
    typealias Arg = SwiftExpression.Argument

    /// `audience:` when it is not the default (`app`).
    static func arguments(_ d: Descriptor) -> [Arg] {
        d.audience == .app ? [] : [Arg(label: "audience", value: .term(d.audience))]
    }

    /// An input's requirement.
    static func requirement(_ r: Descriptor.InputRequirement) -> Expr {
        let tests: [Expr] = r.anyOf.map { test in
            if let prefix = test.prefix {
                return .call(".prefix", [Arg(label: nil, value: .string(prefix))])
            }
            return .call(
                ".jwtClaim",
                [
                    Arg(label: "name", value: .string(test.jwtClaim ?? "")),
                    Arg(label: "equals", value: .string(test.equals ?? "")),
                ])
        }
        return .call(
            ".init",
            [
                Arg(label: "anyOf", value: .array(tests)), Arg(label: "code", value: .string(r.code)),
                Arg(label: "message", value: .string(r.message)),
            ])
    }

    /// A request's pagination.
    static func pagination(_ p: Descriptor.Pagination) -> Expr {
        .call(
            "LatchkeyRuntime.PaginationSpec",
            SpecLiteral.optionalArgs([
                ("totalHeader", p.totalHeader.map(Expr.string)), ("linkHeader", p.linkHeader.map(Expr.string)),
                ("pageParameter", p.pageParameter == "page" ? nil : .string(p.pageParameter)),
            ]))
    }
}
