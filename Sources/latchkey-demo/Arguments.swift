import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime

/// What the demo does.
enum DemoMode: Equatable {
    /// Sign in against the local simulator for a descriptor (`oidc` by default), with the device flow when asked.
    case simulated(provider: String, device: Bool)
    /// Sign in against a real OpenID provider in the system browser (waiting up to `timeout` for the
    /// redirect), or with the device flow.
    case real(issuer: URL, clientID: String, device: Bool, timeout: LatchkeyDuration)
    /// Print the help.
    case help
}

/// A command-line mistake.
struct DemoArgumentError: Error {
    let message: String
}

enum DemoArguments {
    static let help = """
        latchkey-demo: a guided tour of Latchkey's sign-in flows.

        USAGE
          latchkey-demo                          Run against a local simulated OpenID provider (no network, no account).
          latchkey-demo --provider NAME          Run against the simulator for another descriptor.
          latchkey-demo --issuer URL --client-id ID [--timeout SECONDS]
                                                 Sign in to a real OpenID Connect provider in your browser.
          latchkey-demo --device [--provider NAME]
                                                 Sign in with the device flow on the simulator; the demo plays
                                                 the user and approves the code itself.
          latchkey-demo --issuer URL --client-id ID --device
                                                 Sign in to a real provider with the device flow: enter the
                                                 printed code at the printed address, on any device.
          latchkey-demo --help                   Show this help.

        WHAT IT DOES
          1. Starts a local identity provider (ProviderSimulator, from LatchkeyTesting) on 127.0.0.1,
             driven by the provider's descriptor.
          2. Signs in: the browser flow (authorization code + PKCE) with a loopback redirect
             (RFC 8252), played by a headless browser; providers without a usable browser flow
             sign in with their password flow instead (user ada@example.com).
          3. Refreshes the session (the simulator rotates refresh tokens and detects reuse).
          4. Calls the simulator's /protected API with the access token.
          5. Signs out.

        PROVIDERS (--provider)
          \(ProviderCatalog.names.joined(separator: ", "))

        DEVICE FLOW (--device, RFC 8628)
          The demo asks the provider for a device code, prints the verification address and the user
          code, and polls the token endpoint (at the interval the provider asks for) until the user has
          approved the code on another device; then it shows the user, refreshes and signs out.
          On the simulator the demo plays that user: it opens the verification address with the code
          and approves it, so it runs offline. Providers with a device flow:
          \(ProviderCatalog.deviceNames.joined(separator: ", "))

        REAL PROVIDER (--issuer, --client-id)
          Register a public client (no secret) whose redirect URI is a loopback URL
          (http://127.0.0.1/callback, any port). The demo opens your browser (xdg-open or open),
          waits for the redirect (--timeout SECONDS, default \(defaultTimeoutSeconds)), prints who signed in,
          refreshes, and signs out. Access and refresh tokens are never printed.
          When the provider's discovery document is not at ISSUER/.well-known/openid-configuration,
          set the environment variable LATCHKEY_OIDC_DISCOVERY_URL to its URL (its issuer must
          still be ISSUER).
          With --device no browser is opened here: register the client for the device authorization
          grant. The device authorization endpoint comes from the provider's discovery document
          (device_authorization_endpoint); when it lists none, set the environment variable
          LATCHKEY_OIDC_DEVICE_AUTHORIZATION_ENDPOINT (django-oauth-toolkit lists none: use
          ISSUER/device-authorization/).

        EXIT STATUS
          0 on success; 1 on any error (printed to stderr).
        """

    /// How long the browser sign-in waits for the redirect by default, in seconds.
    static let defaultTimeoutSeconds = 300

    static func parse(_ arguments: [String]) throws(DemoArgumentError) -> DemoMode {
        var provider: String?
        var issuer: String?
        var clientID: String?
        var device = false
        var timeout: String?
        var index = 0
        func value(_ name: String) throws(DemoArgumentError) -> String {
            index += 1
            guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                throw DemoArgumentError(message: "\(name) needs a value.")
            }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--help", "-h": return .help
            case "--provider": provider = try value(argument)
            case "--issuer": issuer = try value(argument)
            case "--client-id": clientID = try value(argument)
            case "--device": device = true
            case "--timeout": timeout = try value(argument)
            default: throw DemoArgumentError(message: "Unknown argument '\(argument)'.")
            }
            index += 1
        }
        if issuer != nil || clientID != nil {
            guard provider == nil else {
                throw DemoArgumentError(message: "--provider cannot be combined with --issuer.")
            }
            guard let issuer, let url = URL(string: issuer), url.scheme != nil, url.host != nil else {
                throw DemoArgumentError(message: "--issuer needs an absolute URL, e.g. https://accounts.example.com.")
            }
            guard let clientID, !clientID.isEmpty else {
                throw DemoArgumentError(message: "--issuer needs --client-id too.")
            }
            guard !(device && timeout != nil) else {
                throw DemoArgumentError(message: "--timeout applies to the browser sign-in, not to --device.")
            }
            var seconds = defaultTimeoutSeconds
            if let timeout {
                guard let value = Int(timeout), value > 0 else {
                    throw DemoArgumentError(message: "--timeout needs a positive number of seconds.")
                }
                seconds = value
            }
            return .real(issuer: url, clientID: clientID, device: device, timeout: .seconds(seconds))
        }
        guard timeout == nil else {
            throw DemoArgumentError(message: "--timeout needs --issuer and --client-id.")
        }
        let name = provider ?? "oidc"
        if device {
            guard let spec = ProviderCatalog.deviceSpec(named: name) else {
                throw DemoArgumentError(
                    message:
                        "'\(name)' has no device flow a public client can run. Providers with one: \(ProviderCatalog.deviceNames.joined(separator: ", "))."
                )
            }
            return .simulated(provider: spec.name, device: true)
        }
        guard ProviderCatalog.spec(named: name) != nil else {
            throw DemoArgumentError(
                message: "Unknown provider '\(name)'. Known: \(ProviderCatalog.names.joined(separator: ", ")).")
        }
        return .simulated(provider: name, device: false)
    }
}
