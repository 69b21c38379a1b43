// Stand-in for SwiftUI: apps, scenes and window groups (iOS 14, macOS 11).

/// A type that represents the structure and behavior of an app.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
extension App {
    /// Initializes and runs the app.
    @MainActor @preconcurrency public static func main() { fatalError("stand-in") }
}

/// A part of an app's user interface with a life cycle managed by the system.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
extension Never: Scene {}

/// A result builder for composing a collection of scenes into a single composite scene.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
@resultBuilder
public struct SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
    public static func buildExpression<Content: Scene>(_ content: Content) -> Content { content }
}

/// A scene that presents a group of identically structured windows.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
public struct WindowGroup<Content: View> {
    /// Creates a window group.
    public init(@ViewBuilder content: () -> Content) { fatalError("stand-in") }
}

@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
extension WindowGroup: Scene {
    public typealias Body = Never
    public var body: Never { fatalError("stand-in") }
}
