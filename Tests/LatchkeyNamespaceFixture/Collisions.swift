// Types an app may well declare or import from elsewhere (CryptoKit's SHA256, swift-http-types'
// HTTPRequest, its own JSON), named like LatchkeyRuntime's internals. LatchkeyImportTests imports this module
// beside Latchkey and uses them unqualified: that compiles only while `import Latchkey` keeps the runtime's
// internals out of the app's namespace.

/// Stands in for CryptoKit's `SHA256`.
public struct SHA256: Sendable {
    /// Creates one.
    public init() {}
}
/// Stands in for swift-http-types' `HTTPRequest`.
public struct HTTPRequest: Sendable {
    /// Creates one.
    public init() {}
}
/// Stands in for an app's own `JSON`.
public struct JSON: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyRuntime's `PKCE`.
public struct PKCE: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyRuntime's `Base64URL`.
public struct Base64URL: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyRuntime's `JSONWebKey`.
public struct JSONWebKey: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyRuntime's `JWSToken`.
public struct JWSToken: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyRuntime's `SignatureAlgorithm`.
public struct SignatureAlgorithm: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyRuntime's `RandomToken`.
public struct RandomToken: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyRuntime's `LoopbackRedirectServer`.
public struct LoopbackRedirectServer: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyRuntime's `ProviderSpec` (generated code's SPI).
public struct ProviderSpec: Sendable {
    /// Creates one.
    public init() {}
}
/// Named like LatchkeyRuntime's `AuthClient` (the engine, SPI).
public struct AuthClient: Sendable {
    /// Creates one.
    public init() {}
}
/// Every type above, by name, so the test can check it used this module's.
public let fixtureTypeNames = [
    "SHA256", "HTTPRequest", "JSON", "PKCE", "Base64URL", "JSONWebKey", "JWSToken", "SignatureAlgorithm",
    "RandomToken", "LoopbackRedirectServer", "ProviderSpec", "AuthClient",
]
