// Stand-in for AppKit (macOS only): windows, as presentation anchors, and the workspace.

@_exported import Foundation

/// An abstract class that forms the basis of event and command processing in AppKit.
@MainActor
open class NSResponder: NSObject {}

/// A window that an app displays on the screen.
@MainActor
open class NSWindow: NSResponder {}

/// A workspace that can launch other apps and perform a variety of file-handling services (callable from any
/// thread, so not main-actor isolated).
open class NSWorkspace: NSObject {
    /// The shared workspace object.
    open class var shared: NSWorkspace { fatalError("stand-in") }
    /// Opens the location at the specified URL.
    open func open(_ url: URL) -> Bool { fatalError("stand-in") }
}
