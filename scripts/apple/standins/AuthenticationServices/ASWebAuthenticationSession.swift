// Stand-in for AuthenticationServices: the web authentication session (Objective-C classes, imported into
// Swift without `@objc` here: the stand-in modules are built without Objective-C interop).

@_exported import Foundation

#if os(macOS)
    @_exported import AppKit

    /// A platform-specific type that indicates the kind of user interface element to use as a presentation anchor.
    @available(macOS 10.15, *)
    public typealias ASPresentationAnchor = NSWindow
#elseif canImport(UIKit)
    @_exported import UIKit

    /// A platform-specific type that indicates the kind of user interface element to use as a presentation anchor.
    @available(iOS 12.0, tvOS 13.0, *)
    public typealias ASPresentationAnchor = UIWindow
#endif
// watchOS: neither ASPresentationAnchor nor the presentation context providers exist there (Apple's documentation
// lists no watchOS for them); tvOS has the anchor but no web-session presentation context.

#if !os(watchOS)

/// An interface the session uses to ask a delegate for a presentation context.
@available(macOS 10.15, iOS 13.0, *)
@available(tvOS, unavailable)
@MainActor
public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    /// Tells the delegate from which window it should present content to the user.
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}
#endif

/// A session that an app uses to authenticate a user through a web service.
@available(macOS 10.15, iOS 12.0, tvOS 16.0, watchOS 6.2, *)
open class ASWebAuthenticationSession: NSObject {
    /// A completion handler for the web authentication session.
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    /// An object for evaluating navigation events in an authentication session.
    @available(macOS 14.4, iOS 17.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    open class Callback: NSObject {
        /// Creates a callback object that matches against URLs with the given custom scheme.
        open class func customScheme(_ customScheme: String) -> Self { fatalError("stand-in") }
        /// Creates a callback object that matches against HTTPS URLs with the given host and path.
        open class func https(host: String, path: String) -> Self { fatalError("stand-in") }
        /// Checks whether a URL matches the callback.
        open func matchesURL(_ url: URL) -> Bool { fatalError("stand-in") }
    }

    /// Creates a web authentication session instance (to be deprecated: Apple marks it
    /// `API_TO_BE_DEPRECATED` in favour of the `callback:` initializer).
    @available(macOS 10.15, iOS 12.0, tvOS 16.0, watchOS 6.2, *)
    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) {
        fatalError("stand-in")
    }

    /// Creates a web authentication session instance that uses a callback to evaluate a redirection URL.
    @available(macOS 14.4, iOS 17.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    public init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler) {
        fatalError("stand-in")
    }

#if !os(watchOS)
    /// A delegate that provides a display context (weak in Apple's declaration; a computed property here) in which the system can present an authentication session.
    @available(macOS 10.15, iOS 13.0, *)
    @available(tvOS, unavailable)
    open var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
#endif

    /// A Boolean value that indicates whether the session should ask the browser for a private authentication
    /// session (Apple lists no tvOS).
    @available(macOS 10.15, iOS 13.0, watchOS 6.2, *)
    @available(tvOS, unavailable)
    open var prefersEphemeralWebBrowserSession: Bool {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    /// Any additional header fields to set when loading the initial URL.
    @available(macOS 14.4, iOS 17.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    open var additionalHeaderFields: [String: String]? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    /// A Boolean value that indicates whether the session can successfully start.
    @available(macOS 10.15.4, iOS 13.4, watchOS 6.2, *)  // Apple lists tvOS 13.4, before the class's tvOS 16
    open var canStart: Bool { fatalError("stand-in") }

    /// Starts a web authentication session.
    @available(macOS 10.15, iOS 12.0, tvOS 16.0, watchOS 6.2, *)
    open func start() -> Bool { fatalError("stand-in") }

    /// Cancels a web authentication session (Apple lists no tvOS).
    @available(macOS 10.15, iOS 12.0, watchOS 6.2, *)
    @available(tvOS, unavailable)
    open func cancel() { fatalError("stand-in") }
}

/// The error domain of web authentication session errors.
@available(macOS 10.15, iOS 12.0, tvOS 16.0, watchOS 6.2, *)
public var ASWebAuthenticationSessionErrorDomain: String { fatalError("stand-in") }

/// An error a web authentication session can return (an `NS_ERROR_ENUM`, imported as a struct).
@available(macOS 10.15, iOS 12.0, tvOS 16.0, watchOS 6.2, *)
public struct ASWebAuthenticationSessionError: Error, Hashable, Sendable {
    /// The error codes of a web authentication session.
    public enum Code: Int, Hashable, Sendable {
        /// The user canceled the session.
        case canceledLogin = 1
        /// The session has no presentation context provider.
        @available(macOS 10.15, iOS 13.0, *) @available(tvOS, unavailable) @available(watchOS, unavailable)
        case presentationContextNotProvided = 2
        /// The presentation context provider returned an invalid context.
        @available(macOS 10.15, iOS 13.0, *) @available(tvOS, unavailable) @available(watchOS, unavailable)
        case presentationContextInvalid = 3
    }

    public init(_ code: Code, userInfo: [String: Any] = [:]) { fatalError("stand-in") }

    /// The error code.
    public var code: Code { fatalError("stand-in") }

    public static var errorDomain: String { fatalError("stand-in") }
    public static var canceledLogin: Code { .canceledLogin }
    @available(macOS 10.15, iOS 13.0, *) @available(tvOS, unavailable) @available(watchOS, unavailable)
    public static var presentationContextNotProvided: Code {
        .presentationContextNotProvided
    }
    @available(macOS 10.15, iOS 13.0, *) @available(tvOS, unavailable) @available(watchOS, unavailable)
    public static var presentationContextInvalid: Code {
        .presentationContextInvalid
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { fatalError("stand-in") }
    public func hash(into hasher: inout Hasher) { fatalError("stand-in") }
}

/// Compare an error with a code, as `catch ASWebAuthenticationSessionError.canceledLogin` does.
@available(macOS 10.15, iOS 12.0, tvOS 16.0, watchOS 6.2, *)
public func ~= (code: ASWebAuthenticationSessionError.Code, error: any Error) -> Bool { fatalError("stand-in") }
