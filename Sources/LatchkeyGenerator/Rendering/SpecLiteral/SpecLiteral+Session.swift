import LatchkeyDescriptor
import LatchkeyVocabulary

/// The spec literal's sessions, users and tokens: `SessionMapping`, `UserMapping`, `TokenSpec`,
/// `AccessTokenClaimsSpec` and `AssuranceSpec`.
extension SpecLiteral {
    static func pointer(_ p: String?) -> Expr { p.map(Expr.string) ?? .none }

    static func session(_ s: Descriptor.SessionFields) -> Expr {
        RuntimeConstruct.sessionMapping.call([
            "accessToken": .string(s.accessToken), "refreshToken": pointer(s.refreshToken),
            "idToken": pointer(s.idToken), "tokenType": pointer(s.tokenType), "expiresIn": pointer(s.expiresIn),
            "expiresAt": pointer(s.expiresAt), "scope": pointer(s.scope), "user": pointer(s.user),
        ])
    }

    static func user(_ u: Descriptor.UserFields) -> Expr {
        RuntimeConstruct.userMapping.call([
            "id": .string(u.id), "email": pointer(u.email), "name": pointer(u.name), "role": pointer(u.role),
            "scopes": pointer(u.scopes), "nameParts": .array(u.nameParts.map(Expr.string)),
        ])
    }

    static func tokens(_ t: Descriptor.Tokens) -> Expr {
        RuntimeConstruct.tokenSpec.call([
            "accessTokenFormat": .term(t.accessToken), "validatesIDToken": .bool(t.validateIDToken),
            "jwksURL": t.jwks.map(template), "issuer": t.issuer.map(template),
            "accessTokenKeysURL": t.accessTokenKeys.map(template), "audience": t.audience.map(template),
            "implicitAssertion": t.implicitAssertion.map(Expr.string), "issuerValidation": .term(t.issuerValidation),
            "footer": stringDictionary(t.footer), "requiredClaims": .array(t.requiredClaims.map(Expr.string)),
            "claimValues": stringDictionary(t.claimValues), "userFromAccessToken": .bool(t.userFromAccessToken),
            "userDocumentMustMatch": .array(t.userDocumentMustMatch.map(Expr.string)),
        ])
    }

    /// `accessTokenClaims`, when the descriptor declares it.
    static func accessTokenClaims(_ c: Descriptor.AccessTokenClaims) -> Expr {
        RuntimeConstruct.accessTokenClaimsSpec.call([
            "keysRequest": .string(c.keys), "algorithms": .array(c.algorithms.map(Expr.string)),
            "issuer": c.issuer.map(template), "fallbackRequest": c.fallback.map(Expr.string),
            "assurance": c.assurance.map(assurance),
        ])
    }

    static func assurance(_ a: Descriptor.Assurance) -> Expr {
        RuntimeConstruct.assuranceSpec.call([
            "levelClaim": .string(a.levelClaim), "methodsClaim": a.methodsClaim.map(Expr.string),
            "factors": a.factors.map(Expr.string), "factorStatus": .string(a.factorStatus),
            "verifiedStatus": .string(a.verifiedStatus), "elevatedLevel": .string(a.elevatedLevel),
        ])
    }
}

extension RuntimeConstruct {
    static let sessionMapping = RuntimeConstruct(
        "SessionMapping", .qualified,
        ["accessToken", "refreshToken", "idToken", "tokenType", "expiresIn", "expiresAt", "scope", "user"].map(
            Parameter.always))
    static let userMapping = RuntimeConstruct(
        "UserMapping", .qualified,
        ["id", "email", "name", "role", "scopes"].map(Parameter.always) + [.unless("nameParts", .array([]))])
    static let tokenSpec = RuntimeConstruct(
        "TokenSpec", .qualified,
        [
            .always("accessTokenFormat"), .unless("validatesIDToken", .bool(false)), .optional("jwksURL"),
            .optional("issuer"), .optional("accessTokenKeysURL"), .optional("audience"), .optional("implicitAssertion"),
            .unless("issuerValidation", .symbol(".exact")), .unless("footer", .dictionary([])),
            .unless("requiredClaims", .array([])), .unless("claimValues", .dictionary([])),
            .unless("userFromAccessToken", .bool(false)), .unless("userDocumentMustMatch", .array([])),
        ])
    static let accessTokenClaimsSpec = RuntimeConstruct(
        "AccessTokenClaimsSpec", .qualified,
        [
            .always("keysRequest"), .unless("algorithms", .array([.string("ES256"), .string("RS256")])),
            .optional("issuer"), .optional("fallbackRequest"), .optional("assurance"),
        ])
    static let assuranceSpec = RuntimeConstruct(
        "AssuranceSpec", .qualified,
        [
            .always("levelClaim"), .optional("methodsClaim"), .optional("factors"),
            .unless("factorStatus", .string("/status")), .unless("verifiedStatus", .string("verified")),
            .always("elevatedLevel"),
        ])
}
