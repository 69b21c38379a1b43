import LatchkeyDescriptor

extension SpecLiteral {
    /// An action's `then`, when it has one.
    static func actionStepArguments(_ a: Descriptor.Action) -> [Arg] {
        optionalArgs([
            (
                "followUp",
                a.then.map { then in
                    .call(
                        "LatchkeyRuntime.ActionFollowUpSpec",
                        [
                            Arg(label: "action", value: .string(then.action)),
                            Arg(label: "arguments", value: stringDictionary(then.arguments)),
                        ])
                }
            )
        ])
    }

    /// `accessTokenClaims`, when the descriptor declares it.
    static func accessTokenClaimsArguments(_ d: Descriptor) -> [Arg] {
        guard let c = d.accessTokenClaims else { return [] }
        var args = [Arg(label: "keysRequest", value: .string(c.keys))]
        if c.algorithms != ["ES256", "RS256"] {
            args.append(Arg(label: "algorithms", value: .array(c.algorithms.map(Expr.string))))
        }
        args += optionalArgs([
            ("issuer", c.issuer.map(template)), ("fallbackRequest", c.fallback.map(Expr.string)),
            ("assurance", c.assurance.map(assurance)),
        ])
        return [Arg(label: "accessTokenClaims", value: .call("LatchkeyRuntime.AccessTokenClaimsSpec", args))]
    }

    private static func assurance(_ a: Descriptor.Assurance) -> Expr {
        var args = [Arg(label: "levelClaim", value: .string(a.levelClaim))]
        args += optionalArgs([
            ("methodsClaim", a.methodsClaim.map(Expr.string)), ("factors", a.factors.map(Expr.string)),
        ])
        if a.factorStatus != "/status" { args.append(Arg(label: "factorStatus", value: .string(a.factorStatus))) }
        if a.verifiedStatus != "verified" {
            args.append(Arg(label: "verifiedStatus", value: .string(a.verifiedStatus)))
        }
        args.append(Arg(label: "elevatedLevel", value: .string(a.elevatedLevel)))
        return .call("LatchkeyRuntime.AssuranceSpec", args)
    }
}
