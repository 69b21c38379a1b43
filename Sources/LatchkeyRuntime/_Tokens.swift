// The token verifiers (JWS and ID-token claims against a JWKS, PASETO v4.public), AuthError and the crypto
// they share live in LatchkeyTokens, a product of their own for backends. The runtime builds on them; this
// one re-export makes them visible to every file of the runtime (and to `import LatchkeyRuntime`).
@_exported import LatchkeyTokens
