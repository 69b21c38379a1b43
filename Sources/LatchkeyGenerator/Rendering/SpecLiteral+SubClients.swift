import LatchkeyDescriptor

extension SpecLiteral {
    /// An action's `then`, when it has steps.
    static func actionStepArguments(_ a: Descriptor.Action) -> [Arg] {
        guard !a.then.isEmpty else { return [] }
        return [Arg(label: "followUps", value: .array(a.then.map(followUp)))]
    }

    private static func followUp(_ step: Descriptor.ActionFollowUp) -> Expr {
        var args = [
            Arg(label: "action", value: .string(step.action)),
            Arg(label: "arguments", value: stringDictionary(step.arguments)),
        ]
        if let ceremony = step.ceremony {
            // The kind is one of the generator's own case names, never descriptor text.
            let kind: Expr = ceremony.kind == .registration ? .symbol(".registration") : .symbol(".assertion")
            args.append(
                Arg(
                    label: "ceremony",
                    value: .call(
                        "LatchkeyRuntime.PasskeyCeremonySpec",
                        [
                            Arg(label: "kind", value: kind),
                            Arg(label: "optionsPointer", value: .string(ceremony.options)),
                            Arg(label: "credentialParameter", value: .string(ceremony.credential)),
                        ])))
        }
        return .call("LatchkeyRuntime.ActionFollowUpSpec", args)
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
