#!/usr/bin/env python3
"""Writes Tests/LatchkeyTokensTests/JWT/JOSEInteropVectors.swift: JWS tokens signed by an independent
library (jwcrypto over pyca/cryptography), one per algorithm Latchkey verifies, with the public keys, plus
malformed variants a careless signer produces (an ECDSA signature in DER instead of JOSE's raw r||s).

The tests verify these with Latchkey's own verifier, so a mistake shared by Latchkey's test signer and its
verifier (both built on the same OpenSSL calls) cannot hide. Run it by hand when a vector must change:

    python3 -m venv /tmp/jose-venv && /tmp/jose-venv/bin/pip install jwcrypto==1.6.1
    /tmp/jose-venv/bin/python scripts/jose-interop-vectors.py
    swift-format format -i Tests/LatchkeyTokensTests/JWT/JOSEInteropVectors.swift
"""
import json
import pathlib

from cryptography.hazmat.primitives.asymmetric import utils as ec_utils
from jwcrypto import jwk, jws
from jwcrypto.common import base64url_decode, base64url_encode

ALGORITHMS = [
    ("RS256", "RSA", {"size": 2048}),
    ("RS384", "RSA", {"size": 3072}),
    ("RS512", "RSA", {"size": 4096}),
    ("PS256", "RSA", {"size": 2048}),
    ("PS384", "RSA", {"size": 3072}),
    ("PS512", "RSA", {"size": 4096}),
    ("ES256", "EC", {"crv": "P-256"}),
    ("ES384", "EC", {"crv": "P-384"}),
    ("EdDSA", "OKP", {"crv": "Ed25519"}),
]
CLAIMS = {"iss": "https://issuer.example", "sub": "interop-user", "aud": "client-123", "exp": 4102444800}


def sign(key, alg, kid):
    token = jws.JWS(json.dumps(CLAIMS, separators=(",", ":"), sort_keys=True).encode())
    token.add_signature(key, alg=alg, protected=json.dumps({"alg": alg, "kid": kid, "typ": "JWT"}))
    return token.serialize(compact=True)


def der_variant(compact, key):
    """The same ECDSA signature, DER-encoded (what a signer that forgets JOSE's r||s form sends)."""
    header, payload, signature = compact.split(".")
    raw = base64url_decode(signature)
    half = len(raw) // 2
    der = ec_utils.encode_dss_signature(int.from_bytes(raw[:half], "big"), int.from_bytes(raw[half:], "big"))
    return ".".join([header, payload, base64url_encode(der)])


def main():
    vectors = []
    for alg, kty, params in ALGORITHMS:
        key = jwk.JWK.generate(kty=kty, **params)
        kid = "interop-" + alg.lower()
        public = json.loads(key.export_public())
        public["kid"] = kid
        compact = sign(key, alg, kid)
        jws.JWS().deserialize(compact, key)  # the library's own check
        vectors.append((alg, json.dumps(public, sort_keys=True), compact, der_variant(compact, key) if kty == "EC" else None))

    out = pathlib.Path(__file__).resolve().parent.parent / "Tests/LatchkeyTokensTests/JWT/JOSEInteropVectors.swift"
    lines = [
        "// Written by scripts/jose-interop-vectors.py (jwcrypto 1.6.1 over pyca/cryptography). Do not edit.",
        "",
        "/// JWS tokens signed by an independent library, with their public JWKs.",
        "enum JOSEInteropVectors {",
        "    struct Vector: Sendable {",
        "        /// The `alg`.",
        "        let algorithm: String",
        "        /// The public key, a JWK with a `kid`.",
        "        let publicJWK: String",
        "        /// The compact token.",
        "        let token: String",
        "        /// For ECDSA: the same signature DER-encoded, which JOSE does not allow.",
        "        let derSignatureToken: String?",
        "    }",
        "",
        "    static let all: [Vector] = [",
    ]
    for alg, public, compact, der in vectors:
        der_text = json.dumps(der) if der else "nil"
        lines.append(
            f"        Vector(algorithm: {json.dumps(alg)}, publicJWK: #\"{public}\"#, token: {json.dumps(compact)}, "
            f"derSignatureToken: {der_text}),")
    lines += ["    ]", "}", ""]
    out.write_text("\n".join(lines))
    print("wrote", out)


if __name__ == "__main__":
    main()
