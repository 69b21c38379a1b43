#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
    import AuthenticationServices
    #if canImport(UIKit)
        import UIKit
    #elseif canImport(AppKit)
        import AppKit
    #endif

    extension AppleWebAuthenticator {
        /// The window a sheet presents from when the app gave none: the key window of the foreground scene (iOS,
        /// visionOS) or the app's key window (macOS), else the first window there is.
        static func keyWindow() -> ASPresentationAnchor? {
            #if canImport(UIKit)
                let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
                let foreground = scenes.filter { $0.activationState == .foregroundActive }
                for scene in foreground + scenes {
                    if let window = scene.keyWindow ?? scene.windows.first { return window }
                }
                return nil
            #elseif canImport(AppKit)
                let application = NSApplication.shared
                return application.keyWindow ?? application.mainWindow
                    ?? application.windows.first { $0.isVisible }
            #else
                return nil
            #endif
        }
    }
#endif
