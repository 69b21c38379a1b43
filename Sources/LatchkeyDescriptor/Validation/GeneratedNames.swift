import LatchkeyVocabulary

/// The public top-level names a generated client declares, from its descriptor's `swiftName`: one rule for
/// the generator, the collision checks and the docs.
///
/// - The client: `<SwiftName>Client`. A descriptor whose client would take a name a framework apps import
///   declares (``CommonlyImportedTypeNames``) is refused with a diagnostic.
/// - The SwiftUI button (clients that sign in with a browser): `SignInWith<SwiftName>Button`
///   (`SignInWithBaseIdPButton`), unless a framework declares that name: AuthenticationServices declares
///   `SignInWithAppleButton`, so the Apple client's button is `AppleSignInButton`. A descriptor for which
///   both are taken is refused.
public enum GeneratedNames {
    /// The client type's name.
    /// - Parameter swiftName: The descriptor's `swiftName`.
    public static func client(_ swiftName: String) -> String {
        swiftName + "Client"
    }

    /// The sign-in button's name: `SignInWith<SwiftName>Button`, else `<SwiftName>SignInButton`; `nil` when
    /// a commonly imported framework declares both.
    /// - Parameters:
    ///   - swiftName: The descriptor's `swiftName`.
    ///   - reserved: The names to avoid (default ``CommonlyImportedTypeNames/all``).
    public static func signInButton(
        _ swiftName: String, avoiding reserved: Set<String> = CommonlyImportedTypeNames.all
    ) -> String? {
        ["SignInWith\(swiftName)Button", "\(swiftName)SignInButton"].first { !reserved.contains($0) }
    }

    /// Why the names generated from `swiftName` cannot be used, or `nil` when they can.
    /// - Parameters:
    ///   - swiftName: The descriptor's `swiftName`.
    ///   - reserved: The names to avoid (default ``CommonlyImportedTypeNames/all``).
    /// - Returns: A message naming the colliding name and the module that declares it.
    public static func collision(
        _ swiftName: String, avoiding reserved: Set<String> = CommonlyImportedTypeNames.all
    ) -> String? {
        let client = client(swiftName)
        if reserved.contains(client) {
            let module = CommonlyImportedTypeNames.module(declaring: client) ?? "a framework"
            return "the client type \(client) has the name of a type in \(module), which apps import beside Latchkey"
        }
        if signInButton(swiftName, avoiding: reserved) == nil {
            return "the sign-in button can be neither SignInWith\(swiftName)Button nor \(swiftName)SignInButton: "
                + "frameworks apps import beside Latchkey declare both"
        }
        return nil
    }
}
