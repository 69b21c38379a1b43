import LatchkeyDescriptor
import Testing

/// Format versions: 1 and 2 are read, a version-2 key in a version-1 file is a located error naming the
/// key and the version it needs, an unknown version is refused clearly.
@Suite struct FormatVersionTests {
    static func descriptor(version: String, _ extra: String = "") -> String {
        """
        {
          "formatVersion": \(version),
          "name": "acme",
          "displayName": "Acme"\(extra.isEmpty ? "" : ",\n  " + extra)
        }
        """
    }

    static func errors(_ text: String) -> [Diagnostic] {
        DescriptorLoader.load(bytes: Array(text.utf8), fileName: "acme.json").diagnostics.filter {
            $0.severity == .error
        }
    }

    /// One fragment per key version 2 added here, and the line and key name its error must carry.
    static let version2Keys: [(fragment: String, line: Int, key: String)] = [
        (#""callback": {"location": "form_post"}"#, 5, #""location": "form_post""#),
        (#""callback": {"user": {"parameter": "user", "email": "/email"}}"#, 5, #""callback"."user""#),
        (
            #""requests": {"r": {"method": "POST", "url": "https://e.com/t", "clientAuthentication": "post_if_secret"}}"#,
            5, #""clientAuthentication": "post_if_secret""#
        ),
        (
            #""requests": {"r": {"method": "POST", "url": "https://e.com/t", "clientAuthentication": "basic_if_secret"}}"#,
            5, #""clientAuthentication": "basic_if_secret""#
        ),
        (
            #""requests": {"r": {"method": "POST", "url": "https://e.com/t", "clientAuthentication": "basic_secret_or_empty"}}"#,
            5, #""clientAuthentication": "basic_secret_or_empty""#
        ),
        (
            #""requests": {"r": {"url": "https://e.com/v", "authorization": "accessToken", "authorizationScheme": "OAuth"}}"#,
            5, #""authorizationScheme""#
        ),
        (
            #""requests": {"r": {"method": "POST", "url": "https://e.com/t", "response": "session", "session": {"accessToken": "/id_token"}}}"#,
            5, #"a request's "session""#
        ),
        (#""tokens": {"issuerValidation": "tenant_placeholder"}"#, 5, #""issuerValidation""#),
        (
            #""discovery": {"issuer": "https://e.com", "url": "https://e.com/tenant/metadata"}"#, 5,
            #""discovery"."url""#
        ),
        (
            #""requests": {"t": {"method": "POST", "url": "https://e.com/t", "clientAuthentication": "post"}}, "clientSecret": {"required": true}"#,
            5, #""clientSecret""#
        ),
        (
            #""errors": {"map": [{"match": {"/errors/0/field": "client_id"}, "code": "invalid_client"}]}"#, 5,
            #""match""#
        ),
        (#""captures": {"region": {"pointer": "/region"}}"#, 5, #""captures""#),
        (#""user": {"nameParts": ["/given_name", "/family_name"]}"#, 5, #""nameParts""#),
        (#""callback": {"scope": "scope"}"#, 5, #""callback"."scope""#),
    ]

    @Test("every version-2 key is accepted in a version-2 descriptor")
    func version2Accepts() {
        for entry in Self.version2Keys {
            let found = Self.errors(Self.descriptor(version: "2", entry.fragment))
            #expect(found.isEmpty, "\(entry.fragment): \(found)")
        }
    }

    @Test("a version-2 key in a version-1 descriptor is a located error that names it")
    func version1Refuses() throws {
        for entry in Self.version2Keys {
            let found = Self.errors(Self.descriptor(version: "1", entry.fragment))
            let error = try #require(found.first, "no error for \(entry.fragment)")
            #expect(found.count == 1, "\(found)")
            #expect(error.message.contains("needs formatVersion 2"), "\(error)")
            #expect(error.message.contains(entry.key), "\(error) should name \(entry.key)")
            #expect(error.location.line == entry.line, "\(error)")
            #expect(error.pointer != nil)
            #expect(error.description.contains("change \"formatVersion\" to 2"), "\(error)")
        }
    }

    @Test("versions 1 and 2 are both read; the catalog's template writes 2", arguments: ["1", "2"])
    func supportedVersions(version: String) throws {
        let result = DescriptorLoader.load(bytes: Array(Self.descriptor(version: version).utf8), fileName: "acme.json")
        #expect(result.diagnostics.isEmpty)
        #expect(result.descriptor?.formatVersion == Int(version))
        #expect(DescriptorFormat.currentVersion == 2)
        #expect(DescriptorFormat.supportedVersions == 1...2)
    }

    @Test(
        "an unknown or malformed version is refused with the versions that are known",
        arguments: [("3", "unknown formatVersion 3"), ("0", "unknown formatVersion 0"), ("\"2\"", "format version")])
    func unknownVersion(version: String, message: String) throws {
        let found = Self.errors(Self.descriptor(version: version))
        let error = try #require(found.first)
        #expect(found.count == 1, "\(found)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.location.line == 2)
        if version == "3" { #expect(error.message.contains("versions 1 to 2")) }
    }

    @Test("a request's session needs a session response; authorizationScheme needs accessToken authorization")
    func version2KeyRules() {
        let session = Self.errors(
            Self.descriptor(
                version: "2",
                #""requests": {"r": {"url": "https://e.com/t", "response": "document", "session": {"accessToken": "/x"}}}"#
            ))
        #expect(session.contains { $0.message.contains("needs \"response\": \"session\"") }, "\(session)")
        let scheme = Self.errors(
            Self.descriptor(
                version: "2", #""requests": {"r": {"url": "https://e.com/v", "authorizationScheme": "OAuth"}}"#))
        #expect(scheme.contains { $0.message.contains("needs \"authorization\": \"accessToken\"") }, "\(scheme)")
        let badScheme = Self.errors(
            Self.descriptor(
                version: "2",
                #""requests": {"r": {"url": "https://e.com/v", "authorization": "accessToken", "authorizationScheme": "Bad Scheme"}}"#
            ))
        #expect(badScheme.contains { $0.message.contains("is not an HTTP authorization scheme") }, "\(badScheme)")
        let missingParameter = Self.errors(Self.descriptor(version: "2", #""callback": {"user": {"email": "/email"}}"#))
        #expect(missingParameter.contains { $0.message.contains("missing required key \"parameter\"") })
    }

    @Test(
        "discovery.url is an https (or loopback http) template that never uses a discovered value",
        arguments: [
            (#""discovery": {"issuer": "https://e.com", "url": "{discovered.jwks_uri}"}"#, "cannot use"),
            (#""discovery": {"issuer": "https://e.com", "url": "http://e.com/metadata"}"#, "is not https"),
        ])
    func discoveryURLRules(fragment: String, message: String) throws {
        let found = Self.errors(Self.descriptor(version: "2", fragment))
        let error = try #require(found.first, "no error for \(fragment)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.location.line == 5)
    }
}
