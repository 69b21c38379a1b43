import Foundation
import LatchkeyTokens

/// A started device authorization (RFC 8628): show ``userCode`` and ``verificationURI`` (or a QR code of
/// ``verificationURIComplete``) to the user, then call ``DeviceAuthorizationProviding/completeDeviceAuthorization(_:)``.
///
/// The device code itself stays inside the runtime: it is a credential, never shown, never logged
/// (``description`` leaves it out).
public struct DeviceAuthorization: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The device code polled at the token endpoint (internal: a credential).
    let deviceCode: String
    /// The code the user types at ``verificationURI``.
    public let userCode: String
    /// Where the user goes to enter ``userCode``.
    public let verificationURI: URL
    /// The verification URI with the user code in it, when the provider sent one (for a QR code or link).
    public let verificationURIComplete: URL?
    /// The lifetime of the device and user codes, in seconds, as the provider sent it.
    public let expiresIn: Int
    /// When the codes expire (local clock): the moment of the response plus ``expiresIn``.
    public let expiresAt: Date
    /// The polling interval the provider asked for, in seconds (5 when it named none).
    public let interval: Int

    /// Creates a device authorization (for tests and custom flows).
    /// - Parameters:
    ///   - deviceCode: The device code.
    ///   - userCode: The user code.
    ///   - verificationURI: The verification URI.
    ///   - verificationURIComplete: The verification URI with the user code.
    ///   - expiresIn: The lifetime in seconds.
    ///   - interval: The polling interval in seconds.
    ///   - issuedAt: When the response arrived (local clock).
    init(
        deviceCode: String, userCode: String, verificationURI: URL, verificationURIComplete: URL?, expiresIn: Int,
        interval: Int, issuedAt: Date
    ) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresIn = expiresIn
        self.expiresAt = issuedAt.addingTimeInterval(Double(expiresIn))
        self.interval = interval
    }

    /// The default polling interval (RFC 8628 §3.2).
    static let defaultInterval = 5
    /// How much a `slow_down` adds to the interval (RFC 8628 §3.5).
    static let slowDownStep = 5
    /// The longest polling interval, in seconds, whatever the provider asks for or backing off reaches: a
    /// provider's `interval` of days cannot put polling to sleep past the codes' life.
    public static let maximumInterval = 60
    /// The longest user code accepted, in characters.
    static let maximumUserCodeLength = 64

    /// Reads a device authorization response (RFC 8628 §3.2).
    /// - Throws: `invalid_response` when `device_code`, `user_code`, `verification_uri` or `expires_in` is
    ///   missing or malformed.
    static func decode(_ document: JSON, issuedAt: Date, provider: String) throws(AuthError) -> DeviceAuthorization {
        func invalid(_ message: String) -> AuthError {
            AuthError(.invalidResponse, "The device authorization response \(message).", provider: provider)
        }
        guard let deviceCode = document["device_code"]?.string, !deviceCode.isEmpty else {
            throw invalid("has no device_code")
        }
        guard let userCode = document["user_code"]?.string, !userCode.isEmpty else {
            throw invalid("has no user_code")
        }
        guard isPrintable(userCode) else {
            throw invalid("has a user_code that is not printable text (control or direction characters)")
        }
        // `verification_url` is the pre-RFC spelling some providers still send.
        let verification = (document["verification_uri"] ?? document["verification_url"])?.string
        guard let verification, let verificationURI = webURL(verification) else {
            throw invalid("has no https verification_uri (without user info; http only on a loopback host)")
        }
        var complete: URL?
        if let text = document["verification_uri_complete"]?.string {
            guard let url = webURL(text) else {
                throw invalid("has a verification_uri_complete that is not https (or has user info)")
            }
            complete = url
        }
        guard let lifetime = SessionDecoder.number(document["expires_in"]), lifetime >= 1, lifetime < 1e9 else {
            throw invalid("has no positive expires_in")
        }
        var interval = defaultInterval
        if let value = document["interval"] {
            guard let seconds = SessionDecoder.number(value), seconds >= 0, seconds < 1e6 else {
                throw invalid("has a malformed interval")
            }
            interval = min(max(1, Int(seconds.rounded(.up))), maximumInterval)
        }
        return DeviceAuthorization(
            deviceCode: deviceCode, userCode: userCode, verificationURI: verificationURI,
            verificationURIComplete: complete, expiresIn: Int(lifetime), interval: interval, issuedAt: issuedAt)
    }

    /// A URL the app may show the user: https with a host and no user info (`https://evil@idp.example`
    /// reads as the wrong site), or http on a loopback host (a local test provider).
    private static func webURL(_ text: String) -> URL? {
        guard let url = URL(string: text), RedirectURI.isAllowedEndpoint(url), url.password == nil else { return nil }
        return url
    }

    /// Whether a user code is text a person can read and type: no control, format (bidirectional
    /// overrides, zero-width), separator-line, private-use or unassigned characters, at most
    /// ``maximumUserCodeLength`` characters.
    static func isPrintable(_ code: String) -> Bool {
        guard code.count <= maximumUserCodeLength else { return false }
        return code.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
                return false
            default:
                return true
            }
        }
    }

    /// A summary without the device code.
    public var description: String {
        "DeviceAuthorization(user code: \(userCode), verification URI: \(verificationURI.absoluteString), "
            + "expires in: \(expiresIn) s, interval: \(interval) s)"
    }

    /// A mirror without the device code, so `dump` and debuggers do not show it.
    public var customMirror: Mirror { Mirror(self, children: ["summary": description]) }
}
