import LatchkeyDescriptor
import LatchkeyVocabulary

/// Builds the values the vendor-SDK template shows, from a descriptor with a `vendorSDK` section: the client's
/// values (the provider spec above all) and the vendor's names.
enum VendorSDKContext {
    /// The codes every browser sign-in can raise, beside the descriptor's own.
    static let browserSignInCodes = [
        "login_cancelled", "confidential_client_in_mobile", "config_discovery_failed", "web_auth_start_failed",
        "state_mismatch", "invalid_configuration", "network_error", "session_missing",
    ]

    static func make(_ d: Descriptor, _ sdk: VendorSDK, fileName: String) -> TemplateContext {
        var context = ClientContext.make(d, fileName: fileName)
        context["module"] = .text(sdk.module)
        context["authType"] = .text(sdk.authType)
        context["configType"] = .text(sdk.configType)
        context["errorType"] = .text(sdk.errorType)
        context["sessionType"] = .text(sdk.sessionType)
        context["principalType"] = .text(sdk.principalType)
        context["signInButton"] = .text(sdk.signInButton)
        context["signInLabel"] = .text("Sign in with \(d.displayName)")
        let primary = d.inputs.first { $0.name == sdk.primaryInput }
        context["primaryInput"] = .text(sdk.primaryInput)
        context["primaryInputLabel"] = .text(sdk.primaryInputLabel)
        context["primaryInputSummary"] = .text(primary?.summary ?? "The \(sdk.primaryInput) input.")
        context["primaryInputEnvironment"] = .text(primary?.environment ?? "")
        let others = d.inputs.filter { $0.name != sdk.primaryInput }
        context["otherInputs"] = .list(others.map(otherInput))
        let keys = ([primary?.environment] + others.map(\.environment)).compactMap { $0 }
        context["infoPlistKeys"] = .text(keys.map { "`\($0)`" }.joined(separator: ", "))
        for state in VendorSDK.runtimeStates {
            context["\(state)Case"] = .text(sdk.stateCase(for: state))
        }
        let failed = sdk.stateCase(for: "failed")
        context["failedCase"] = .text(failed)
        context["stateCases"] = .list(
            sdk.stateCases.map { name in
                let shown = sdk.states.filter { $0.value == name }.map(\.name)
                let summary =
                    name == failed
                    ? "A sign-in or the stored session's read failed, with the error."
                    : "The runtime's \(shown.joined(separator: " or ")) state."
                return TemplateContext([
                    "name": .text(name), "isFailed": .bool(name == failed), "summary": .text(summary),
                ])
            })
        context["principalClaims"] = .list(sdk.principalClaims.map { TemplateContext(["name": .text($0)]) })
        context["errorCodes"] = .text(errorCodes(d).map { "`\($0)`" }.joined(separator: ", "))
        return context
    }

    /// The codes the surface's error can carry: a browser sign-in's, then the descriptor's, each once.
    static func errorCodes(_ d: Descriptor) -> [String] {
        var codes: [String] = []
        let declared =
            d.errors.codes.map(\.name) + d.errors.map.map(\.code) + d.errors.callback.map(\.code)
            + d.errors.verification.map(\.value)
        for code in browserSignInCodes + declared where !codes.contains(code) { codes.append(code) }
        return codes
    }

    static func otherInput(_ i: Descriptor.Input) -> TemplateContext {
        var summary = i.summary ?? "The \(i.name) input."
        if let value = i.defaultValue { summary += " `nil`: `\(value)`." }
        return TemplateContext([
            "name": .text(i.name),
            "label": .text(SwiftNames.lowerCamelCase(i.name)),
            "summary": .text(summary),
            "swiftType": .code(GeneratedCode(i.type == .url ? "Foundation.URL?" : "Swift.String?")),
            "isURL": .bool(i.type == .url),
            "environment": .text(i.environment ?? ""),
        ])
    }
}
