import LatchkeyVocabulary
import Testing

/// A token format's meaning is decided in one switch (`TokenFormat.behaviour`); the decoder, the generator, the
/// runtime and the simulator read it. These are the rules the readers rely on.
@Suite struct TokenFormatBehaviourTests {
    @Test("only a verified format offers a server handoff or a PASETO token type", arguments: TokenFormat.allCases)
    func handoffNeedsVerification(format: TokenFormat) {
        let behaviour = format.behaviour
        if behaviour.offersServerHandoff { #expect(behaviour.verification != nil) }
        if behaviour.acceptsPasetoTokenType { #expect(behaviour.verification == .pasetoV4Public) }
    }

    @Test("opaque and JWT access tokens are never looked into; PASETO v4.public ones are verified")
    func theFormatsToday() {
        #expect(TokenFormat.opaque.behaviour.verification == nil)
        #expect(TokenFormat.jwt.behaviour.verification == nil)
        #expect(!TokenFormat.jwt.behaviour.offersServerHandoff)
        #expect(TokenFormat.pasetoV4Public.behaviour.verification == .pasetoV4Public)
        #expect(TokenFormat.pasetoV4Public.behaviour.offersServerHandoff)
    }
}
