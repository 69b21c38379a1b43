import Foundation
import FuzzSupport
@_spi(Generated) import LatchkeyRuntime

// The provider, the input format and the proof reader of FuzzDPoPChallenge (the harness is in
// FuzzDPoPChallenge.swift).

/// The access and refresh tokens of the sign-in. At least 8 characters: the runtime cuts shorter
/// secrets out of nothing (a two-letter token would be "found" in every English message).
let signInAccessToken = "at-dpop-fuzz-5c1e9a"
let signInRefreshToken = "rt-dpop-fuzz-83d2f7"

/// The sign-in's answer: a valid DPoP-bound token response (RFC 9449 §5), no nonce.
let signInResponse = TransportResponse(
    status: 200, headerFields: ["Content-Type": "application/json"],
    body: Data(
        #"{"access_token":"\#(signInAccessToken)","token_type":"DPoP","refresh_token":"\#(signInRefreshToken)","expires_in":3600}"#
            .utf8))

let baseURL = "https://as.fuzz.example"
/// The app's resource: the same origin as the token endpoint, whose nonces the client must still keep apart from
/// the token endpoint's (RFC 9449 §9: a nonce is accepted only by the server that gave it).
let resourceURL = URL(string: "\(baseURL)/resource")!
let tokenURL = URL(string: "\(baseURL)/token")!

/// A provider with a password flow and a refresh flow whose tokens are always DPoP-bound (`dpop: required`).
/// (Templates are written as the generator writes them, `.init(segments:)`: their type lives in a module the Fuzz
/// package cannot name.)
let dpopProvider = ProviderSpec(
    name: "fuzz-dpop", displayName: "Fuzz DPoP",
    inputs: [InputSpec(name: "baseURL", kind: .url, trimsTrailingSlash: true), InputSpec(name: "clientID")],
    requests: [
        "password": RequestSpec(
            method: "POST", url: .init(segments: [.variable("baseURL"), .literal("/token")]), encoding: .form,
            body: [
                ParameterSpec("grant_type", .string(.literal("password"))),
                ParameterSpec("username", .string(.variable("username"))),
                ParameterSpec("password", .string(.variable("password"))),
                ParameterSpec("client_id", .string(.variable("clientID"))),
            ], response: .session),
        "refresh": RequestSpec(
            method: "POST", url: .init(segments: [.variable("baseURL"), .literal("/token")]), encoding: .form,
            body: [
                ParameterSpec("grant_type", .string(.literal("refresh_token"))),
                ParameterSpec("refresh_token", .string(.variable("refresh_token"))),
                ParameterSpec("client_id", .string(.variable("clientID"))),
            ], response: .session),
    ],
    flows: FlowSet(password: PasswordFlowSpec(request: "password"), refresh: RefreshFlowSpec(request: "refresh")),
    errors: ErrorMappingSpec(codePointers: ["/error"], messagePointers: ["/error_description"]),
    senderConstraint: SenderConstraintSpec(dpop: .required))

/// The response an input stands for. When it starts with three digits and a line break, that line is the status,
/// the lines up to an empty line are header fields (`name: value`, repeated names kept, one space after the colon
/// dropped and nothing else, so values can carry the whitespace a careless transport leaves), and the rest is
/// the body; otherwise the status is 200 and the whole input is the body.
func response(from bytes: [UInt8]) -> TransportResponse {
    guard bytes.count >= 4, bytes[0...2].allSatisfy({ (0x30...0x39).contains($0) }), bytes[3] == 0x0A else {
        return TransportResponse(status: 200, headerFields: [:], body: Data(bytes))
    }
    let status = Int(String(decoding: bytes[0...2], as: UTF8.self)) ?? 200
    let afterStatus = Array(bytes[4...])
    var fields = HTTPHeaderFields()
    var body = afterStatus
    if afterStatus.first == 0x0A {
        body = Array(afterStatus.dropFirst())
    } else if let (head, rest) = Fuzz.split(afterStatus, at: [0x0A, 0x0A]) {
        for line in head.split(separator: 0x0A) {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            var value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
            fields.append(String(decoding: line[..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self))
        }
        body = Array(rest)
    }
    return TransportResponse(status: status, headerFields: fields, body: Data(body))
}

/// RFC 9449 §8.1 `nonce = 1*NQCHAR`, `NQCHAR = %x21 / %x23-5B / %x5D-7E`, at most 1,024 bytes (the runtime's
/// own check is internal; this is the grammar written out again).
func isNonce(_ text: String) -> Bool {
    let bytes = text.utf8
    guard !bytes.isEmpty, bytes.count <= 1024 else { return false }
    return bytes.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
}

/// The nonce a response offers as the runtime reads it: the first `DPoP-Nonce` field, whitespace trimmed.
func offeredNonce(_ response: TransportResponse) -> String? {
    response.header("DPoP-Nonce")?.trimmingCharacters(in: .whitespaces)
}

/// base64url without padding (RFC 7515 §2) to bytes.
func base64URLDecode(_ text: Substring) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    guard !base64.contains("=") else { return nil }
    while base64.utf8.count % 4 != 0 { base64 += "=" }
    return Data(base64Encoded: base64)
}

/// The claims of a `DPoP` proof header, after checking it is a compact JWS (three base64url parts, a JSON header
/// of type `dpop+jwt` with a public `jwk`, a JSON object payload, a signature).
func proofClaims(_ proof: String) -> [String: JSON] {
    let parts = proof.split(separator: ".", omittingEmptySubsequences: false)
    Fuzz.check(parts.count == 3, "a DPoP proof that is not a compact JWS: \(parts.count) parts")
    guard let headerBytes = base64URLDecode(parts[0]), let header = JSON(data: headerBytes)?.object,
        let payloadBytes = base64URLDecode(parts[1]), let payload = JSON(data: payloadBytes)?.object
    else {
        fatalError("FUZZ INVARIANT: a DPoP proof whose header or payload is not base64url JSON: \(proof)")
    }
    Fuzz.check(header["typ"]?.string == "dpop+jwt", "a DPoP proof of type \(String(describing: header["typ"]))")
    Fuzz.check(header["jwk"]?.object != nil, "a DPoP proof without its public key")
    Fuzz.check(base64URLDecode(parts[2]).map { !$0.isEmpty } ?? false, "a DPoP proof without a signature")
    return payload
}
