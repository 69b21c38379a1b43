// Stand-in additions for the SwiftUI sign-in (AppleWebAuthenticator's key window): the application and its
// windows, from Apple's documented declarations.

/// An object that manages an app's main event loop and resources used by all of that app's objects.
@MainActor
open class NSApplication: NSResponder {
    /// Returns the application instance, creating it if it doesn't exist yet.
    open class var shared: NSApplication { fatalError("stand-in") }
    /// The window that currently receives keyboard events.
    open var keyWindow: NSWindow? { fatalError("stand-in") }
    /// The app's main window.
    open var mainWindow: NSWindow? { fatalError("stand-in") }
    /// An array of the app's window objects.
    open var windows: [NSWindow] { fatalError("stand-in") }
}

extension NSWindow {
    /// A Boolean value that indicates whether the window is visible onscreen (even when it's obscured by other
    /// windows).
    public var isVisible: Bool { fatalError("stand-in") }
}
