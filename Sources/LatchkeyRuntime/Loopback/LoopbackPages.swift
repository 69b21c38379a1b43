import Foundation
import LatchkeyTokens

/// One page the loopback redirect server answers the browser with.
public enum LoopbackPage: Sendable, Hashable {
    /// A page in Latchkey's own plain layout with this title and message. Both are text: they are
    /// HTML-escaped, never read as markup. A failure page of this kind also shows the provider's `error` and
    /// `error_description`, escaped and shortened.
    case message(title: String, message: String)
    /// The app's own HTML document, at most ``LoopbackPages/maximumHTMLBytes`` bytes, served as it is except
    /// for two placeholders: `{{error}}` and `{{error_description}}` become the provider's `error` and
    /// `error_description` (empty on a success page), HTML-escaped and shortened. Nothing else of the request
    /// is put into it.
    case html(String)
    /// A `303 See Other` to a page the app hosts: an absolute `http` or `https` URL of printable ASCII, at
    /// most ``LoopbackPages/maximumRedirectBytes`` bytes. Nothing of the callback (code, state, error) is
    /// added to it, and the answer carries `Referrer-Policy: no-referrer`, so the app's page does not learn
    /// the callback URL either.
    case redirect(URL)

    /// Latchkey's page after a sign-in.
    public static let signedIn = LoopbackPage.message(
        title: "Signed in", message: "You are signed in. You can close this window and return to the app.")
    /// Latchkey's page after a failed sign-in or logout, or a callback that fails its checks.
    public static let failed = LoopbackPage.message(
        title: "Sign-in failed",
        message: "The sign-in did not complete. You can close this window and return to the app.")
    /// Latchkey's page after a logout.
    public static let signedOut = LoopbackPage.message(
        title: "Signed out", message: "You are signed out. You can close this window and return to the app.")
}

/// The pages the loopback redirect server shows in the browser: after a sign-in, after a failed sign-in
/// or a callback that fails its checks, and after a logout through the loopback.
///
/// Set them once for a client with ``AuthClientOptions/loopbackPages``, or per server with
/// `LoopbackRedirectServer`'s `pages:` argument. Every
/// answer carries `Cache-Control: no-store`, `Referrer-Policy: no-referrer` (the page was loaded from the
/// callback URL, which holds the code) and `X-Content-Type-Options: nosniff`; Latchkey's own pages also
/// carry a `Content-Security-Policy` that allows no script, no frame and no request.
public struct LoopbackPages: Sendable, Hashable {
    /// The largest app-supplied HTML page, in UTF-8 bytes (64 KiB).
    public static let maximumHTMLBytes = 64 * 1024
    /// The largest redirect URL, in bytes.
    public static let maximumRedirectBytes = 2048
    /// The largest title or message of a ``LoopbackPage/message(title:message:)`` page, in UTF-8 bytes.
    public static let maximumMessageBytes = 4096
    /// How many characters of the provider's `error` or `error_description` a failure page shows.
    public static let maximumProviderErrorCharacters = 200

    /// Latchkey's own pages.
    public static let standard = LoopbackPages()

    /// Shown after the browser brought the sign-in's callback back.
    public var success: LoopbackPage
    /// Shown after a callback that carries the provider's `error`, or one whose `state` is missing or wrong.
    public var failure: LoopbackPage
    /// Shown after the provider sent the browser back from a logout
    /// (``EndSessionProviding/endSessionWithLoopback(open:timeout:)``).
    public var signedOut: LoopbackPage

    /// Creates the pages; each one not given is Latchkey's own.
    /// - Parameters:
    ///   - success: The page after a sign-in.
    ///   - failure: The page after a failed sign-in or logout, or a callback that fails its checks.
    ///   - signedOut: The page after a logout.
    public init(
        success: LoopbackPage = .signedIn, failure: LoopbackPage = .failed, signedOut: LoopbackPage = .signedOut
    ) {
        self.success = success
        self.failure = failure
        self.signedOut = signedOut
    }

    /// Checks every page's limits.
    /// - Throws: ``AuthError`` `invalid_configuration` for a page over its size limit or a redirect that is
    ///   not an absolute `http`/`https` URL of printable ASCII.
    public func validate() throws(AuthError) {
        for (name, page) in [("success", success), ("failure", failure), ("signedOut", signedOut)] {
            try Self.validate(page, name: name)
        }
    }

    static func validate(_ page: LoopbackPage, name: String) throws(AuthError) {
        switch page {
        case .message(let title, let message):
            guard title.utf8.count <= maximumMessageBytes, message.utf8.count <= maximumMessageBytes else {
                throw AuthError(
                    .invalidConfiguration,
                    "the loopback \(name) page's title or message is over \(maximumMessageBytes) bytes")
            }
        case .html(let html):
            guard html.utf8.count <= maximumHTMLBytes else {
                throw AuthError(.invalidConfiguration, "the loopback \(name) page is over \(maximumHTMLBytes) bytes")
            }
        case .redirect(let url):
            let text = url.absoluteString
            let scheme = url.scheme?.lowercased()
            guard scheme == "http" || scheme == "https", url.host?.isEmpty == false,
                text.utf8.count <= maximumRedirectBytes,
                text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
            else {
                throw AuthError(
                    .invalidConfiguration,
                    "the loopback \(name) redirect must be an absolute http or https URL of printable ASCII, "
                        + "at most \(maximumRedirectBytes) bytes")
            }
        }
    }
}
