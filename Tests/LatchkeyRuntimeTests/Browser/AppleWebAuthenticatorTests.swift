#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
    import AuthenticationServices
    import Foundation
    import LatchkeyRuntime
    import Testing

    /// Issue 17, item 3, on the first Mac CI: the Apple authenticator refuses an `http` redirect before it
    /// shows anything (the anchor is never asked for).
    @Suite("Browser: AppleWebAuthenticator (Apple platforms)")
    struct AppleWebAuthenticatorTests {
        @Test("an http redirect is invalid_configuration, and no sheet is shown")
        @MainActor
        func refusesHTTPRedirect() async {
            let authenticator = AppleWebAuthenticator(anchor: {
                Issue.record("the sheet asked for a window")
                return ASPresentationAnchor()
            })
            let request = WebAuthenticationRequest(
                url: URL(string: "https://id.example.com/authorize?client_id=acme")!,
                redirectURI: URL(string: "http://127.0.0.1:8765/callback")!, callbackScheme: "http")
            let error = await #expect(throws: AuthError.self) { try await authenticator.authenticate(request) }
            #expect(error?.code == .invalidConfiguration)
        }
    }
#endif
