// Stand-in additions for the SwiftUI sign-in (AppleWebAuthenticator's key window): scenes and their windows,
// from Apple's documented declarations.

/// An object that represents one instance of your app's user interface.
@available(iOS 13.0, *)
@MainActor
open class UIScene: UIResponder {
    /// The execution state of a scene.
    @available(iOS 13.0, *)
    public enum ActivationState: Int, Sendable {
        case unattached = -1
        case foregroundActive = 0
        case foregroundInactive = 1
        case background = 2
    }

    /// The current execution state of the scene.
    open var activationState: UIScene.ActivationState { fatalError("stand-in") }
}

/// A scene that manages one or more windows for your app.
@available(iOS 13.0, *)
@MainActor
open class UIWindowScene: UIScene {
    /// The windows associated with the scene.
    open var windows: [UIWindow] { fatalError("stand-in") }
    /// The key window associated with the scene.
    @available(iOS 15.0, *)
    open var keyWindow: UIWindow? { fatalError("stand-in") }
}

extension UIApplication {
    /// The app's currently connected scenes.
    @available(iOS 13.0, *)
    public var connectedScenes: Set<UIScene> { fatalError("stand-in") }
}
