// swift-format-ignore-file
// Written by scripts/embed-templates.sh from Templates/. Do not edit by hand.

/// The templates compiled into latchkey-gen, used when no Templates/ folder is given.
public enum BuiltInTemplates {
    /// Template text by file name.
    public static let all: [String: String] = [
        "Client.swift.template": client,
        "Index.swift.template": index,
        "VendorSDK.swift.template": vendorSDK,
        "_ActionArguments.swift.template": partialActionArguments,
        "_ActionMethods.swift.template": partialActionMethods,
        "_ActionValueEnums.swift.template": partialActionValueEnums,
        "_AssuranceLevel.swift.template": partialAssuranceLevel,
        "_BrowserSignIn.swift.template": partialBrowserSignIn,
        "_ParameterDeclaration.swift.template": partialParameterDeclaration,
        "_PasskeyCeremonies.swift.template": partialPasskeyCeremonies,
        "_ValueEnum.swift.template": partialValueEnum,
        "_VendorConfiguration.swift.template": partialVendorConfiguration,
        "_VendorSignInButton.swift.template": partialVendorSignInButton,
        "_VendorValueTypes.swift.template": partialVendorValueTypes,
    ]
}
