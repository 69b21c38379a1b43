import Foundation
@_spi(Generated) import LatchkeyRuntime

/// Scripted user journeys through django-oauth-toolkit's pages (the CI provider in `ci-oidc/`): the
/// login form (`id="login-form"`), the consent form (`id="authorizationForm"`, button `allow=Authorize`),
/// the device code form (`user_code`) and the device confirm form (`action=accept|deny`).
extension FormUserAgent {
    /// The most pages one journey goes through before it gives up.
    private static var maximumPages: Int { 8 }

    /// Signs in and answers the consent page, from an authorization URL to the callback.
    ///
    /// Logs in when the provider asks (this browser's session is reused otherwise), then approves or
    /// cancels the consent page, and follows the redirects to the redirect URI.
    /// - Parameters:
    ///   - authorizeURL: The authorization URL (from `prepareAuthorization` or `signInWithLoopback`).
    ///   - username: The user name.
    ///   - password: The password.
    ///   - approve: `true` posts `allow=Authorize`; `false` posts the form as the Cancel button does.
    ///   - redirectURI: Where to stop; `nil` takes the authorization URL's `redirect_uri` parameter.
    ///   - deliverLoopbackCallback: Whether a loopback callback is requested (so that the runtime's loopback
    ///     redirect server receives it) before it is returned.
    /// - Returns: The callback URL (with `code` or `error`, `state` and `iss`).
    /// - Throws: `invalid_credentials` when the login form comes back; `web_auth_start_failed` for a page
    ///   that is neither a login nor a consent page (the message has the status and the page's start).
    @discardableResult
    public func signIn(
        authorizeURL: URL, username: String, password: String, approve: Bool = true, redirectURI: URL? = nil,
        deliverLoopbackCallback: Bool = true
    ) async throws(AuthError) -> URL {
        let stop = redirectURI ?? Self.queryValue("redirect_uri", in: authorizeURL).flatMap { URL(string: $0) }
        guard let stop else {
            throw AuthError(.webAuthStartFailed, "No redirect URI: the authorization URL has no redirect_uri.")
        }
        var outcome = try await navigate(authorizeURL, stoppingAt: stop, deliverLoopback: deliverLoopbackCallback)
        var loggedIn = false
        for _ in 0..<Self.maximumPages {
            let page: Page
            switch outcome {
            case .callback(let url): return url
            case .page(let current): page = current
            }
            if let login = page.form(id: "login-form") {
                guard !loggedIn else { throw Self.loginRejected(page) }
                loggedIn = true
                outcome = try await submit(
                    login, overrides: [("username", username), ("password", password)], stoppingAt: stop,
                    deliverLoopback: deliverLoopbackCallback)
            } else if let consent = page.form(id: "authorizationForm") {
                outcome = try await submit(
                    consent, overrides: approve ? [("allow", "Authorize")] : [], stoppingAt: stop,
                    deliverLoopback: deliverLoopbackCallback)
            } else {
                throw Self.unexpected(page, expecting: "a login or consent page")
            }
        }
        throw AuthError(.webAuthStartFailed, "The sign-in did not reach the redirect URI.")
    }

    /// The user's part of a device authorization: opens the verification URI, logs in when asked,
    /// confirms the user code, then accepts or denies.
    /// - Parameters:
    ///   - verificationURI: `verification_uri_complete`, or `verification_uri` together with `userCode`.
    ///   - username: The user name.
    ///   - password: The password.
    ///   - approve: `accept` or `deny`.
    ///   - userCode: The user code to type when the page does not prefill it.
    /// - Returns: The final status page ("Device Authorized" / "Device Denied" on django-oauth-toolkit).
    /// - Throws: `invalid_credentials` when the login form comes back; `web_auth_start_failed` when the
    ///   user code is refused or a page is unexpected.
    @discardableResult
    public func approveDevice(
        verificationURI: URL, username: String, password: String, approve: Bool = true, userCode: String? = nil
    ) async throws(AuthError) -> Page {
        var outcome = try await navigate(verificationURI)
        var loggedIn = false
        var codeSent = false
        var decided = false
        for _ in 0..<Self.maximumPages {
            guard case .page(let page) = outcome else {
                throw AuthError(.webAuthStartFailed, "The device verification redirected out of the provider.")
            }
            if let login = page.form(id: "login-form") {
                guard !loggedIn else { throw Self.loginRejected(page) }
                loggedIn = true
                outcome = try await submit(
                    login, overrides: [("username", username), ("password", password)], stoppingAt: nil)
            } else if let codeForm = page.forms.first(where: { $0["user_code"] != nil }) {
                guard !codeSent else { throw Self.unexpected(page, expecting: "the user code to be accepted") }
                codeSent = true
                let code = userCode ?? codeForm["user_code"] ?? ""
                guard !code.isEmpty else { throw Self.unexpected(page, expecting: "a prefilled user code") }
                outcome = try await submit(codeForm, overrides: [("user_code", code)], stoppingAt: nil)
            } else if !decided,
                let confirm = page.forms.first(where: { form in form.submitters.contains { $0.name == "action" } })
            {
                decided = true
                outcome = try await submit(
                    confirm, overrides: [("action", approve ? "accept" : "deny")], stoppingAt: nil)
            } else if decided, page.status == 200 {
                return page
            } else {
                throw Self.unexpected(page, expecting: "a login, user code or confirmation page")
            }
        }
        throw AuthError(.webAuthStartFailed, "The device verification did not finish.")
    }

    static func queryValue(_ name: String, in url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }

    private static func loginRejected(_ page: Page) -> AuthError {
        AuthError(
            .invalidCredentials,
            "The login form came back (\(page.contains("login-error") ? "login error shown" : "no error shown")).",
            status: page.status)
    }

    private static func unexpected(_ page: Page, expecting: String) -> AuthError {
        let snippet = page.body.replacingOccurrences(of: "\n", with: " ").prefix(300)
        return AuthError(
            .webAuthStartFailed,
            "Expected \(expecting); \(page.method) \(page.url.absoluteString) answered \(page.status): \(snippet)",
            status: page.status)
    }
}
