// Each protocol's operations live in a file of their own (`<Protocol>+Operations.swift`), never beside the
// protocol: a file that declares a type or protocol is always linked (its metadata is), so an operation
// written here would link its whole flow (device code, end session, ...) into every app. Written apart,
// an operation and the flow behind it are linked only into an app that calls it (docs/Performance.md).

/// A client whose provider signs in devices without a browser (RFC 8628 device authorization).
public protocol DeviceAuthorizationProviding: AuthProviderClient {}

/// A client whose provider issues tokens to the client itself (client credentials grant), for
/// server-side tools created with a client secret.
public protocol ClientCredentialsProviding: AuthProviderClient {}

/// A client whose provider logs out in a browser (OpenID RP-initiated logout).
public protocol EndSessionProviding: AuthProviderClient {}

/// A client whose provider hands a session over to a backend.
public protocol ServerHandoffProviding: AuthProviderClient {}

/// A client whose provider answers who the signed-in user is (a user-info endpoint).
public protocol UserInfoProviding: AuthProviderClient {}
