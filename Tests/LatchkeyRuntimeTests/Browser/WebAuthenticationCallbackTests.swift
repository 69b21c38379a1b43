import Foundation
@_spi(Generated) import LatchkeyRuntime
import Testing

/// Issue 17, item 3: the rule that picks the authentication sheet's callback from the redirect URI
/// (`.customScheme` or `.https(host:path:)`), and refuses `http`.
@Suite("Browser: authentication sheet callback")
struct WebAuthenticationCallbackTests {
    @Test(
        "a redirect URI picks its callback",
        arguments: [
            ("dev.acme.app://auth-callback", WebAuthenticationCallback.customScheme("dev.acme.app")),
            ("Dev.Acme.App:/cb", .customScheme("dev.acme.app")),
            ("com.googleusercontent.apps.123:/oauth2redirect", .customScheme("com.googleusercontent.apps.123")),
            ("https://app.example.com/auth/callback", .https(host: "app.example.com", path: "/auth/callback")),
            ("https://App.Example.com/auth/callback?x=1", .https(host: "app.example.com", path: "/auth/callback")),
            ("https://app.example.com", .https(host: "app.example.com", path: "/")),
        ])
    func picksCallback(redirect: String, expected: WebAuthenticationCallback) throws {
        #expect(try WebAuthenticationCallback(redirectURI: URL(string: redirect)!) == expected)
    }

    @Test(
        "http, port-qualified, user-qualified and scheme-less redirects are refused as invalid_configuration",
        arguments: [
            "http://127.0.0.1:8765/callback", "HTTP://app.example.com/cb", "https://app.example.com:8443/cb",
            "https://user@app.example.com/cb", "/relative/callback", "https:///no-host",
        ])
    func refuses(redirect: String) {
        let error = #expect(throws: AuthError.self) {
            try WebAuthenticationCallback(redirectURI: URL(string: redirect)!)
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.kind == .misconfigured)
    }

    @Test("where the sheet matches custom schemes only, an https redirect is refused and a custom scheme kept")
    func customSchemesOnly() throws {
        let error = #expect(throws: AuthError.self) {
            try WebAuthenticationCallback(
                redirectURI: URL(string: "https://app.example.com/auth/callback")!, universalLinksSupported: false)
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.kind == .misconfigured)
        let scheme = try WebAuthenticationCallback(
            redirectURI: URL(string: "dev.acme.app://auth-callback")!, universalLinksSupported: false)
        #expect(scheme == .customScheme("dev.acme.app"))
        let http = #expect(throws: AuthError.self) {
            try WebAuthenticationCallback(
                redirectURI: URL(string: "http://127.0.0.1:8765/callback")!, universalLinksSupported: false)
        }
        #expect(http?.code == .invalidConfiguration)
    }

    @Test(
        "the https refusal names the first release of each platform whose sheet matches https redirects, watchOS too",
        arguments: ["iOS 17.4", "macOS 14.4", "visionOS 1.1", "watchOS 10.4"])
    func refusalNamesRelease(release: String) {
        let error = #expect(throws: AuthError.self) {
            try WebAuthenticationCallback(
                redirectURI: URL(string: "https://app.example.com/auth/callback")!, universalLinksSupported: false)
        }
        #expect(error?.message.range(of: release) != nil)
        #expect(error?.message.range(of: "app.example.com") == nil)
    }

    @Test("an https callback matches its host and path only; a custom scheme matches the scheme")
    func matching() {
        let https = WebAuthenticationCallback.https(host: "app.example.com", path: "/auth/callback")
        #expect(https.matches(URL(string: "https://APP.example.com/auth/callback?code=c&state=s")!))
        #expect(!https.matches(URL(string: "https://app.example.com/auth/callback/more")!))
        #expect(!https.matches(URL(string: "https://evil.example.com/auth/callback")!))
        #expect(!https.matches(URL(string: "http://app.example.com/auth/callback")!))
        #expect(!https.matches(URL(string: "https://app.example.com:444/auth/callback")!))
        let scheme = WebAuthenticationCallback.customScheme("dev.acme.app")
        #expect(scheme.matches(URL(string: "DEV.acme.app://anything?code=c")!))
        #expect(!scheme.matches(URL(string: "dev.acme.apps://cb")!))
    }
}
