/// Public type names that the frameworks an app imports beside `Latchkey` also declare. `import Latchkey`
/// brings the runtime's and the generated clients' public names into every file of the app, so one that a
/// framework declares too makes each unqualified use ambiguous ("'SignInWithAppleButton' is ambiguous for
/// type lookup"). The generator names no public type from this list, and a test scans the runtime and
/// `Generated/` against it.
///
/// Written from Apple's documentation of each framework's top-level types (the "Topics" of
/// https://developer.apple.com/documentation/swiftui, /authenticationservices, /security, /cryptokit,
/// /combine, /foundation and /observation, as of 2026), limited to the names an app file writes unqualified;
/// then the packages apps commonly add for HTTP (github.com/apple/swift-http-types,
/// github.com/apple/swift-openapi-runtime and swift-openapi-urlsession). A name joins the list when a new
/// SDK declares it; nothing is generated from it.
public enum CommonlyImportedTypeNames {
    /// The names, by the framework or package that declares them.
    public static let byModule: [(module: String, names: [String])] = [
        (
            "AuthenticationServices",
            [
                "ASAuthorization", "ASAuthorizationAppleIDButton", "ASAuthorizationAppleIDCredential",
                "ASAuthorizationAppleIDProvider", "ASAuthorizationAppleIDRequest", "ASAuthorizationController",
                "ASAuthorizationControllerDelegate", "ASAuthorizationControllerPresentationContextProviding",
                "ASAuthorizationCredential", "ASAuthorizationError", "ASAuthorizationPasswordProvider",
                "ASAuthorizationPasswordRequest", "ASAuthorizationPlatformPublicKeyCredentialProvider",
                "ASAuthorizationRequest", "ASPasswordCredential", "ASPresentationAnchor", "ASWebAuthenticationSession",
                "ASWebAuthenticationPresentationContextProviding", "ASWebAuthenticationSessionError",
                // The SwiftUI overlay (_AuthenticationServices_SwiftUI).
                "AuthorizationController", "SignInWithAppleButton", "WebAuthenticationSession",
            ]
        ),
        (
            "SwiftUI",
            [
                "Alert", "Alignment", "Angle", "AnyView", "App", "AppStorage", "AsyncImage", "Axis", "Bindable",
                "Binding", "Button", "ButtonStyle", "Canvas", "Capsule", "Circle", "Color", "ColorScheme",
                "ContentUnavailableView", "ControlGroup", "DisclosureGroup", "Divider", "EmptyView", "Environment",
                "EnvironmentObject", "EnvironmentValues", "FocusState", "Font", "ForEach", "Form",
                "GeometryReader", "Gradient", "Grid", "GridRow", "Group", "GroupBox", "HStack", "Image", "Label",
                "LazyHStack", "LazyVStack", "Link", "List", "LocalizedStringKey", "Menu", "Namespace",
                "NavigationLink", "NavigationPath", "NavigationSplitView", "NavigationStack", "ObservedObject",
                "OpenURLAction", "Path", "Picker", "ProgressView", "Rectangle", "RoundedRectangle", "Scene",
                "ScenePhase", "SceneStorage", "ScrollView", "Section", "SecureField", "Settings", "Shape",
                "ShareLink", "Slider", "Spacer", "State", "StateObject", "Stepper", "Tab", "TabView", "Table",
                "Text", "TextEditor", "TextField", "Toggle", "ToolbarItem", "VStack", "View", "ViewBuilder",
                "ViewModifier", "Window", "WindowGroup", "ZStack",
            ]
        ),
        (
            "Security",
            [
                "SecAccessControl", "SecCertificate", "SecIdentity", "SecItem", "SecKey", "SecKeyAlgorithm",
                "SecPolicy", "SecTrust", "SecTrustResultType", "OSStatus",
            ]
        ),
        (
            "CryptoKit",
            [
                "AES", "ChaChaPoly", "CryptoKitError", "Curve25519", "Digest", "HKDF", "HMAC", "HPKE",
                "HashFunction", "Insecure", "P256", "P384", "P521", "SHA256", "SHA256Digest", "SHA384",
                "SHA384Digest", "SHA512", "SHA512Digest", "SecureEnclave", "SharedSecret", "SymmetricKey",
                "SymmetricKeySize",
            ]
        ),
        (
            "Combine",
            [
                "AnyCancellable", "AnyPublisher", "Cancellable", "CurrentValueSubject", "Deferred", "Empty", "Fail",
                "Future", "Just", "ObservableObject", "PassthroughSubject", "Published", "Publisher", "Publishers",
                "Record", "Scheduler", "Subject", "Subscriber", "Subscribers", "Subscription",
            ]
        ),
        (
            "Foundation",
            [
                "AttributedString", "Bundle", "Calendar", "CharacterSet", "Data", "Date", "DateComponents",
                "DateFormatter", "Decimal", "Expression", "FileHandle", "FileManager", "HTTPCookie",
                "HTTPURLResponse", "Host", "ISO8601DateFormatter", "IndexPath", "IndexSet", "JSONDecoder",
                "JSONEncoder", "JSONSerialization", "Locale", "Measurement", "Notification", "NotificationCenter",
                "Operation", "OperationQueue", "Port", "Predicate", "Process", "ProcessInfo", "Progress",
                "PropertyListDecoder", "PropertyListEncoder", "RunLoop", "Scanner", "Stream", "Thread", "TimeZone",
                "Timer", "URL", "URLComponents", "URLCredential", "URLError", "URLQueryItem", "URLRequest",
                "URLResponse", "URLSession", "UUID", "Unit", "UserDefaults",
            ]
        ),
        ("Observation", ["Observable", "ObservationIgnored", "ObservationRegistrar", "ObservationTracked"]),
        ("HTTPTypes (swift-http-types)", ["HTTPField", "HTTPFields", "HTTPRequest", "HTTPResponse"]),
        (
            "OpenAPIRuntime, OpenAPIURLSession",
            ["ClientMiddleware", "ClientTransport", "URLSessionTransport"]
        ),
    ]

    /// Every name in ``byModule``.
    public static let all: Set<String> = Set(byModule.flatMap(\.names))

    /// The module that declares `name`, if any (the first, for a name declared twice).
    public static func module(declaring name: String) -> String? {
        byModule.first { $0.names.contains(name) }?.module
    }
}
