import Foundation
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// Which kind of DPoP key a session gets (the Secure Enclave where the device has one, software otherwise), how
/// its stored form is tagged, and what a key this device cannot use means for its session: the platform-neutral
/// logic of the Apple backend, proved on Linux.
@Suite("DPoP: key kinds and stored forms", timeLimit(minutes: 2))
struct DPoPKeyKindTests {
    @Test("a new key is tried in the Secure Enclave first when the device has one, then in software")
    func preferredKinds() throws {
        #expect(DPoPKeyKind.preferred(secureEnclaveAvailable: true) == [.secureEnclave, .software])
        #expect(DPoPKeyKind.preferred(secureEnclaveAvailable: false) == [.software])

        let software = try DPoPKey.generate()
        var tried: [DPoPKeyKind] = []
        let made = try DPoPKeyKind.first(of: [.secureEnclave, .software]) { kind throws(AuthError) in
            tried.append(kind)
            guard kind == .software else { throw AuthError(.invalidConfiguration, "no enclave") }
            return software
        }
        #expect(tried == [.secureEnclave, .software] && made == software)

        tried = []
        #expect(throws: AuthError.self) {
            try DPoPKeyKind.first(of: [.secureEnclave]) { kind throws(AuthError) in
                tried.append(kind)
                throw AuthError(.invalidConfiguration, "no enclave")
            }
        }
        #expect(tried == [.secureEnclave])
        // This platform (libcrypto) has no Secure Enclave: its keys are software keys, stored untagged.
        #expect(software.kind == .software)
        #expect(!software.storedForm.hasPrefix(DPoPKeyKind.secureEnclaveTag))
    }

    @Test("stored forms: software untagged, Secure Enclave tagged 'se.', anything else no key")
    func storedForms() throws {
        let bytes: [UInt8] = [0, 1, 2, 250, 251, 252, 253]
        let software = DPoPKeyKind.storedForm(kind: .software, bytes: bytes)
        let enclave = DPoPKeyKind.storedForm(kind: .secureEnclave, bytes: bytes)
        #expect(software == Base64URL.encode(bytes))
        #expect(enclave == "se." + Base64URL.encode(bytes))
        #expect(DPoPKeyKind.parse(storedForm: software)?.kind == .software)
        #expect(DPoPKeyKind.parse(storedForm: software)?.bytes == bytes)
        #expect(DPoPKeyKind.parse(storedForm: enclave)?.kind == .secureEnclave)
        #expect(DPoPKeyKind.parse(storedForm: enclave)?.bytes == bytes)
        for refused in ["", "se.", "se.!", "xx.AAEC", "se.se.AAEC", "AAEC.x"] {
            #expect(DPoPKeyKind.parse(storedForm: refused) == nil, "\(refused)")
        }
        // A Secure Enclave key (another device's, or any here: Linux has no enclave) is no key on this device,
        // even when its bytes are a valid key of this platform.
        let key = try DPoPKey.generate()
        #expect(DPoPKey(storedForm: key.storedForm) == key)
        #expect(DPoPKey(storedForm: DPoPKeyKind.storedForm(kind: .secureEnclave, bytes: key.privateKey)) == nil)
    }

    @Test("a stored session whose DPoP key this device cannot open restores signed out, and sends nothing")
    func foreignEnclaveKeySignsInAgain() async throws {
        let harness = try DPoPHarness()
        let first = try harness.client()
        let session = try await first.signIn(username: "ada", password: "pw")
        let key = try #require(session.dpopKey)
        let record = try #require(try await harness.store.load(key: first.storeKey))
        let text = String(decoding: record, as: UTF8.self)
        #expect(text.range(of: key.storedForm) != nil)
        // The record as another device's Secure Enclave key would leave it.
        let foreign = text.replacingOccurrences(
            of: key.storedForm, with: DPoPKeyKind.storedForm(kind: .secureEnclave, bytes: key.privateKey))
        try await harness.store.save(Data(foreign.utf8), key: first.storeKey)
        let sent = harness.server.requests("/token").count + harness.server.requests("/resource").count

        let relaunched = try harness.client()
        await relaunched.restore()
        #expect(relaunched.state == .signedOut)
        await expectAuthError(.sessionMissing) { _ = try await relaunched.send(harness.resource()) }
        await expectAuthError(.sessionMissing) { _ = try await relaunched.currentSession(forceRefresh: true) }
        #expect(harness.server.requests("/token").count + harness.server.requests("/resource").count == sent)

        // Signing in again makes a new key; its proofs verify.
        let again = try await relaunched.signIn(username: "ada", password: "pw")
        #expect(again.dpopKey != nil && again.dpopKey != key)
        #expect(harness.server.refusals.isEmpty)
    }
}
