import Foundation
import LatchkeyTokens

/// Where a vendor-SDK surface's `fromInfoPlist()` reads its configuration: the app's Info.plist on Apple
/// platforms, the process environment elsewhere (Linux has no Info.plist), under the names the descriptor's
/// inputs declare as `environment` (`BASE_IDP_CLIENT_ID`, `BASE_IDP_ISSUER`).
@_spi(Generated) public enum VendorConfiguration {
    /// The value of a key: the main bundle's Info.plist string on Apple platforms, else the environment variable.
    /// Empty values (an unset build setting leaves `$(BASE_IDP_CLIENT_ID)` empty) count as absent.
    /// - Parameter key: The key.
    /// - Returns: The value, or `nil`.
    @Sendable public static func infoPlistValue(_ key: String) -> String? {
        #if canImport(Darwin)
            let value = Bundle.main.object(forInfoDictionaryKey: key) as? String
        #else
            let value = ProcessInfo.processInfo.environment[key]
        #endif
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    /// A required value, or `invalid_configuration` naming the key.
    /// - Parameters:
    ///   - key: The key.
    ///   - lookup: Reads a key.
    /// - Returns: The value.
    /// - Throws: `invalid_configuration` when the key has no value.
    public static func required(_ key: String, _ lookup: (String) -> String?) throws(AuthError) -> String {
        guard let value = lookup(key) else {
            throw AuthError(.invalidConfiguration, "The app's Info.plist (or environment) has no \(key).")
        }
        return value
    }

    /// An optional URL value, or `invalid_configuration` when it is not an absolute URL.
    /// - Parameters:
    ///   - key: The key.
    ///   - lookup: Reads a key.
    /// - Returns: The URL, or `nil` when the key has no value.
    /// - Throws: `invalid_configuration` for a value that is not an absolute URL.
    public static func url(_ key: String, _ lookup: (String) -> String?) throws(AuthError) -> URL? {
        guard let value = lookup(key) else { return nil }
        guard let url = URL(string: value), url.scheme != nil, url.host != nil else {
            throw AuthError(.invalidConfiguration, "\(key) is not an absolute URL.")
        }
        return url
    }
}
