import LatchkeyDescriptor

/// The spec literal's parts for format version 2's authoring keys: `clientSecret`, error rows' `match` and
/// `captures`.
extension SpecLiteral {
    /// The `clientSecret:` argument of a descriptor whose secret is required, else none.
    static func clientSecretArguments(_ d: Descriptor) -> [Arg] {
        guard let secret = d.clientSecret, secret.required else { return [] }
        let requirement = Expr.call(
            "LatchkeyRuntime.ClientSecretRequirement",
            (secret.reason ?? "").isEmpty ? [] : [Arg(label: "reason", value: .string(secret.reason ?? ""))])
        return [Arg(label: "clientSecret", value: requirement)]
    }

    /// The `match:` argument of a mapping row, when it has conditions.
    static func matchArguments(_ r: Descriptor.Errors.Rule) -> [Arg] {
        guard !r.match.isEmpty else { return [] }
        let conditions = r.match.map { condition in
            Expr.call(
                ".init",
                [
                    Arg(label: "pointer", value: .string(condition.pointer)),
                    Arg(label: "value", value: .string(condition.equals)),
                ])
        }
        return [Arg(label: "match", value: .array(conditions))]
    }

    /// The `captures:` argument, when the descriptor declares captures.
    static func captureArguments(_ d: Descriptor) -> [Arg] {
        guard !d.captures.isEmpty else { return [] }
        let captures = d.captures.map { capture in
            Expr.call(
                ".init",
                [Arg(label: "name", value: .string(capture.name))]
                    + optionalArgs([
                        ("request", capture.value.request.map(Expr.string)),
                        ("pointer", capture.value.pointer.map(Expr.string)),
                        ("header", capture.value.header.map(Expr.string)),
                    ]))
        }
        return [Arg(label: "captures", value: .array(captures))]
    }

    /// The `nameParts:` argument of a user mapping that has parts.
    static func userNamePartsArguments(_ u: Descriptor.UserFields) -> [Arg] {
        u.nameParts.isEmpty ? [] : [Arg(label: "nameParts", value: .array(u.nameParts.map(Expr.string)))]
    }
}
