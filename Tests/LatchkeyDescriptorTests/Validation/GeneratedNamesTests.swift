import LatchkeyDescriptor
import LatchkeyVocabulary
import Testing

/// Issue 27, item 4.3: the generated public names never take a name that a framework apps import beside
/// Latchkey declares; AuthenticationServices' `SignInWithAppleButton` above all.
@Suite struct GeneratedNamesTests {
    @Test(arguments: [
        ("BaseIdP", "SignInWithBaseIdPButton"),  // the Base IdP guide's name (issue 29)
        ("Google", "SignInWithGoogleButton"),
        ("Oidc", "SignInWithOidcButton"),
        ("Apple", "AppleSignInButton"),  // AuthenticationServices declares SignInWithAppleButton
    ])
    func signInButton(swiftName: String, expected: String) {
        #expect(GeneratedNames.signInButton(swiftName) == expected)
        #expect(!CommonlyImportedTypeNames.all.contains(expected))
    }

    @Test func theAppleSDKDeclaresSignInWithAppleButton() {
        #expect(CommonlyImportedTypeNames.module(declaring: "SignInWithAppleButton") == "AuthenticationServices")
    }

    @Test(arguments: [
        // (swiftName, reserved names, message fragment or nil)
        ("Acme", [], nil as String?),
        ("Acme", ["SignInWithAcmeButton"], nil),
        ("Acme", ["SignInWithAcmeButton", "AcmeSignInButton"], "neither SignInWithAcmeButton nor AcmeSignInButton"),
        ("Acme", ["AcmeClient"], "the client type AcmeClient"),
    ])
    func collision(swiftName: String, reserved: [String], fragment: String?) {
        let message = GeneratedNames.collision(swiftName, avoiding: Set(reserved))
        if let fragment {
            #expect(message?.contains(fragment) == true, "\(message ?? "nil")")
        } else {
            #expect(message == nil)
        }
    }

    @Test func anAppleDescriptorIsValid() {
        let text = #"{ "formatVersion": 1, "name": "apple", "displayName": "Apple" }"#
        #expect(DescriptorLoader.load(bytes: Array(text.utf8), fileName: "apple.json").diagnostics.isEmpty)
    }
}
