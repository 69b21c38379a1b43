// Stand-in for UIKit (iOS, tvOS and visionOS): windows, as presentation anchors, and opening URLs.

@_exported import Foundation

/// An abstract class for responding to and handling events.
@MainActor
open class UIResponder: NSObject {}

/// An object that manages the content for a rectangular area on the screen.
@MainActor
open class UIView: UIResponder {}

/// The backdrop for your app's user interface and the object that dispatches events to your views.
@MainActor
open class UIWindow: UIView {}

/// The centralized point of control and coordination for apps running in iOS.
@MainActor
open class UIApplication: UIResponder {
    /// The singleton app instance.
    open class var shared: UIApplication { fatalError("stand-in") }
    /// Attempts to asynchronously open the resource at the specified URL.
    @available(iOS 10.0, *)
    open func open(_ url: URL) async -> Bool { fatalError("stand-in") }
}
