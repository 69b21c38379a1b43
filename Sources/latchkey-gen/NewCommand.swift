import Foundation
import LatchkeyDescriptor

/// `latchkey-gen new NAME`: writes a descriptor that validates and builds as it is.
struct NewCommand {
    let options: Options

    init(arguments: [String]) throws(UsageError) {
        options = try Options(
            arguments, valued: ["--output", "--from-discovery", "--display-name"], flags: ["--force", "--oauth2"],
            command: "new")
        if options.flags.contains("--help") { return }
        guard options.positional.count == 1 else { throw UsageError("'new' needs exactly one NAME") }
        if options.flags.contains("--oauth2"), options.values["--from-discovery"] != nil {
            throw UsageError("--oauth2 writes a plain OAuth 2.0 descriptor; --from-discovery needs OpenID discovery")
        }
        // `Strava` names the file `strava.json` and keeps `Strava` as the display name.
        guard SwiftNames.isValidDescriptorName(Self.descriptorName(options.positional[0])) else {
            throw UsageError(
                "'\(options.positional[0])' is not a valid provider name: use lower-case letters and digits, words joined by single hyphens (e.g. 'acme' or 'my-idp')"
            )
        }
    }

    func run() throws -> Int32 {
        if options.flags.contains("--help") {
            print(Help.forCommand("new")!)
            return ExitCode.ok
        }
        let typed = options.positional[0]
        let name = Self.descriptorName(typed)
        let displayName = options.values["--display-name"] ?? typed
        let directory = options.values["--output"] ?? "Descriptors"
        let path = (directory as NSString).appendingPathComponent("\(name).json")
        if FileManager.default.fileExists(atPath: path) && !options.flags.contains("--force") {
            Console.error("\(path):1:1: error: the file exists already; pass --force to overwrite it")
            return ExitCode.invalid
        }
        var discovery = DiscoveryFacts()
        if let file = options.values["--from-discovery"] {
            guard let facts = DiscoveryFacts.read(path: file) else { return ExitCode.invalid }
            discovery = facts
            print("From \(file): \(facts.summary).")
            if !facts.unsupportedAlgorithms.isEmpty {
                Console.error(
                    "\(file):1:1: warning: ID tokens signed with \(facts.unsupportedAlgorithms.joined(separator: ", ")) "
                        + "cannot be verified (RS256, PS256, ES256 and EdDSA can)")
            }
        }
        // A `$schema` only where the schema is: the package's Descriptors folder has it, other folders do not.
        let schemaPath = (directory as NSString).appendingPathComponent("descriptor.schema.json")
        let header = NewDescriptor.Header(
            name: name, displayName: displayName, hasSchema: FileManager.default.fileExists(atPath: schemaPath))
        let text =
            options.flags.contains("--oauth2")
            ? NewOAuth2Descriptor.text(header) : NewDescriptor.text(header, discovery: discovery)
        let check = DescriptorLoader.load(bytes: Array(text.utf8), fileName: "\(name).json")
        guard !check.hasErrors else {
            for diagnostic in check.diagnostics { Console.error(diagnostic.formatted(file: path)) }
            return ExitCode.invalid
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        print("Wrote \(path). Run 'swift build' to generate \(SwiftNames.upperCamelCase(name))Client.")
        return ExitCode.ok
    }

    /// The descriptor name for what was typed: as it is, or lower-cased when only its case is wrong.
    static func descriptorName(_ typed: String) -> String {
        SwiftNames.isValidDescriptorName(typed) ? typed : typed.lowercased()
    }
}

/// What `--from-discovery` takes from a saved OpenID discovery document.
struct DiscoveryFacts {
    var issuer: String?
    var scopes: [String] = []
    /// `revocation_endpoint`: sign-out revokes the refresh token.
    var revocation = false
    /// `end_session_endpoint`: RP-initiated logout.
    var endSession = false
    /// `device_authorization_endpoint`: the device flow.
    var device = false
    /// `jwks_uri` with an algorithm the runtime verifies (or no algorithm list): ID tokens are validated.
    var validatesIDTokens = false
    /// `code_challenge_methods_supported` lists S256, or is absent.
    var pkce = true
    /// The signing algorithms the document lists that the runtime cannot verify.
    var unsupportedAlgorithms: [String] = []

    /// What the new descriptor takes from the document, for the command's output.
    var summary: String {
        var used = ["issuer"]
        if !scopes.isEmpty { used.append("scopes \(scopes.joined(separator: " "))") }
        if revocation { used.append("revocation (sign-out revokes the refresh token)") }
        if device { used.append("device authorization") }
        if endSession { used.append("end session (RP-initiated logout)") }
        if validatesIDTokens { used.append("ID-token validation against jwks_uri") }
        if !pkce { used.append("no PKCE (S256 is not listed)") }
        return used.joined(separator: ", ")
    }

    static func read(path: String) -> DiscoveryFacts? {
        guard let data = FileManager.default.contents(atPath: path) else {
            Console.error("\(path):1:1: error: cannot read the discovery document")
            return nil
        }
        let parsed = JSONParser.parse(Array(data))
        guard let root = parsed.root, let object = root.object else {
            for diagnostic in parsed.diagnostics { Console.error(diagnostic.formatted(file: path)) }
            if parsed.diagnostics.isEmpty { Console.error("\(path):1:1: error: a discovery document is a JSON object") }
            return nil
        }
        guard let issuer = object["issuer"]?.string else {
            Console.error("\(path):1:1: error: the discovery document has no \"issuer\" string")
            return nil
        }
        let scopes = object["scopes_supported"]?.array?.compactMap(\.string) ?? []
        var facts = DiscoveryFacts(
            issuer: issuer, scopes: scopes.filter { ["openid", "profile", "email", "offline_access"].contains($0) })
        func has(_ member: String) -> Bool { !(object[member]?.string ?? "").isEmpty }
        facts.revocation = has("revocation_endpoint")
        facts.endSession = has("end_session_endpoint")
        facts.device = has("device_authorization_endpoint")
        let algorithms = object["id_token_signing_alg_values_supported"]?.array?.compactMap(\.string)
        let verifiable: Set<String> = ["RS256", "PS256", "ES256", "EdDSA"]  // IDTokenValidator.defaultAlgorithms
        facts.unsupportedAlgorithms = (algorithms ?? []).filter { !verifiable.contains($0) && $0 != "none" }
        facts.validatesIDTokens =
            has("jwks_uri") && (algorithms.map { $0.contains(where: verifiable.contains) } ?? true)
        if let methods = object["code_challenge_methods_supported"]?.array?.compactMap(\.string) {
            facts.pkce = methods.contains("S256")
        }
        return facts
    }
}
