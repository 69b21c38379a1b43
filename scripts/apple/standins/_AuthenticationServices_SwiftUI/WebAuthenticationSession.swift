// Stand-in for the cross-import overlay of AuthenticationServices and SwiftUI: what a file that imports both
// sees (Apple's symbols live in the module `_AuthenticationServices_SwiftUI`). The check script builds it and
// writes `AuthenticationServices.swiftcrossimport/SwiftUI.swiftoverlay`; compile with
// `-Xfrontend -enable-cross-import-overlays` (Xcode's SDK modules get this without the flag).

@_exported import AuthenticationServices
import SwiftUI

/// A SwiftUI environment value that views use to authenticate someone using a web service.
@available(macOS 13.3, iOS 16.4, tvOS 16.4, watchOS 9.4, *)
@MainActor
public struct WebAuthenticationSession {
    /// The data-sharing behaviour of a browser session.
    @available(macOS 13.3, iOS 16.4, tvOS 16.4, watchOS 9.4, *)
    public struct BrowserSession: Hashable, Sendable {
        /// A browser session that doesn't share cookies or other browsing data with the user's normal browser
        /// session.
        public static var ephemeral: BrowserSession { fatalError("stand-in") }
    }

    /// Begins a web authentication session.
    @available(macOS 13.3, iOS 16.4, tvOS 16.4, watchOS 9.4, *)
    public func authenticate(
        using url: URL, callbackURLScheme: String, preferredBrowserSession: BrowserSession? = nil
    ) async throws -> URL { fatalError("stand-in") }

    /// Begins a web authentication session that uses a callback to evaluate the redirection URL.
    @available(macOS 14.4, iOS 17.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    public func authenticate(
        using url: URL, callback: ASWebAuthenticationSession.Callback, preferredBrowserSession: BrowserSession? = nil,
        additionalHeaderFields: [String: String]
    ) async throws -> URL { fatalError("stand-in") }
}

@available(macOS 13.3, iOS 16.4, tvOS 16.4, watchOS 9.4, *)
extension EnvironmentValues {
    /// A value that views use to authenticate someone using a web service.
    public var webAuthenticationSession: WebAuthenticationSession { fatalError("stand-in") }
}
