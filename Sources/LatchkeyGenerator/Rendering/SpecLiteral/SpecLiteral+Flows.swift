import LatchkeyDescriptor
import LatchkeyVocabulary

/// The spec literal's flows: `FlowSet` and one spec per flow.
extension SpecLiteral {
    static func flows(_ f: Descriptor.Flows) -> Expr {
        RuntimeConstruct.flowSet.call([
            "password": f.password.map {
                RuntimeConstruct.passwordFlowSpec.call([
                    "request": .string($0.request), "identifierLabel": .string($0.identifierLabel),
                ])
            },
            "authorizationCode": f.authorizationCode.map(authorizationCode),
            "refresh": f.refresh.map {
                RuntimeConstruct.refreshFlowSpec.call([
                    "request": .string($0.request), "reuseCodes": .array($0.reuseCodes.map(Expr.string)),
                ])
            },
            "signOut": f.signOut.map {
                RuntimeConstruct.signOutFlowSpec.call([
                    "request": $0.request.map(Expr.string), "scopes": .array($0.scopes.map(Expr.string)),
                    "defaultScope": $0.defaultScope.map(Expr.string),
                    "keepsSessionScopes": .array($0.keepSessionScopes.map(Expr.string)),
                ])
            },
            "userInfo": f.userInfo.map { RuntimeConstruct.userInfoFlowSpec.call(["request": .string($0)]) },
            "deviceCode": f.deviceCode.map {
                RuntimeConstruct.deviceCodeFlowSpec.call([
                    "authorizationRequest": .string($0.authorization), "tokenRequest": .string($0.token),
                ])
            },
            "clientCredentials": f.clientCredentials.map {
                RuntimeConstruct.clientCredentialsFlowSpec.call([
                    "request": .string($0.request), "defaultScopes": .array($0.scopes.map(Expr.string)),
                    "scopeSeparator": .string($0.scopeSeparator),
                ])
            },
            "endSession": f.endSession.map {
                RuntimeConstruct.endSessionFlowSpec.call(["url": template($0.url), "query": parameters($0.query)])
            },
        ])
    }

    static func authorizationCode(_ c: Descriptor.Flows.AuthorizationCode) -> Expr {
        RuntimeConstruct.authorizationCodeFlowSpec.call([
            "authorizeURL": template(c.authorizeURL), "authorizeQuery": parameters(c.query),
            "exchangeRequest": .string(c.exchange), "usesNonce": .bool(c.nonce), "returnsState": .bool(c.returnsState),
            "defaultScopes": .array(c.scopes.map(Expr.string)), "scopeSeparator": .string(c.scopeSeparator),
            "fetchesUser": .bool(c.fetchUser), "pendingLifetime": .int(c.pendingLifetime),
        ])
    }
}

extension RuntimeConstruct {
    static let flowSet = RuntimeConstruct(
        "FlowSet", .qualified,
        [
            .optional("password"), .optional("authorizationCode"), .optional("refresh"), .optional("signOut"),
            .optional("userInfo"), .optional("deviceCode"), .optional("clientCredentials"), .optional("endSession"),
        ])
    static let passwordFlowSpec = RuntimeConstruct(
        "PasswordFlowSpec", .qualified, [.always("request"), .always("identifierLabel")])
    static let authorizationCodeFlowSpec = RuntimeConstruct(
        "AuthorizationCodeFlowSpec", .qualified,
        [
            .always("authorizeURL"), .always("authorizeQuery"), .always("exchangeRequest"),
            .unless("usesNonce", .bool(false)), .unless("returnsState", .bool(true)),
            .unless("defaultScopes", .array([])), .unless("scopeSeparator", .string(" ")),
            .unless("fetchesUser", .bool(false)), .unless("pendingLifetime", .int(600)),
        ])
    static let refreshFlowSpec = RuntimeConstruct(
        "RefreshFlowSpec", .qualified, [.always("request"), .unless("reuseCodes", .array([]))])
    static let signOutFlowSpec = RuntimeConstruct(
        "SignOutFlowSpec", .qualified,
        [
            .optional("request"), .unless("scopes", .array([])), .optional("defaultScope"),
            .unless("keepsSessionScopes", .array([])),
        ])
    static let userInfoFlowSpec = RuntimeConstruct("UserInfoFlowSpec", .qualified, [.always("request")])
    static let deviceCodeFlowSpec = RuntimeConstruct(
        "DeviceCodeFlowSpec", .qualified, [.always("authorizationRequest"), .always("tokenRequest")])
    static let clientCredentialsFlowSpec = RuntimeConstruct(
        "ClientCredentialsFlowSpec", .qualified,
        [.always("request"), .unless("defaultScopes", .array([])), .unless("scopeSeparator", .string(" "))])
    static let endSessionFlowSpec = RuntimeConstruct(
        "EndSessionFlowSpec", .qualified, [.always("url"), .always("query")])
}
