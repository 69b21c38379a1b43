// swift-tools-version: 6.1
// libFuzzer targets for Latchkey's parsers (issue 8, "Bad input"). A separate package, so that a plain
// `swift build` at the repository root never builds them: they have no `main` and link only with
// `--sanitize=fuzzer`. Build and run them with `scripts/fuzz.sh`; see README.md.
//
// The targets do not use the `Latchkey` product: its build plugin runs `latchkey-gen`, and SwiftPM builds
// that tool with the same `--sanitize=fuzzer`, where libFuzzer's `main` clashes with the tool's. They
// reach the runtime through `LatchkeyTesting` (whose public API is built on LatchkeyRuntime) instead.
import PackageDescription

let runtime: Target.Dependency = .product(name: "LatchkeyTesting", package: "Latchkey")
// The token verifiers' own types (`JWSToken`, `PasetoV4Public`, …), which `LatchkeyRuntime` does not re-export.
let tokens: Target.Dependency = .product(name: "LatchkeyTokens", package: "Latchkey")

let package = Package(
    name: "LatchkeyFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Latchkey", path: "..")],
    targets: [
        // Shared helpers: running async code to completion, invariant traps, input slicing.
        .target(name: "FuzzSupport"),

        // DescriptorLoader.load(bytes:fileName:): JSON scanner, tree builder, decoder, validation.
        .executableTarget(
            name: "FuzzDescriptor",
            dependencies: ["FuzzSupport", .product(name: "LatchkeyDescriptor", package: "Latchkey")]
        ),
        // AuthClient.canHandle / handleCallback on a pending browser sign-in.
        .executableTarget(name: "FuzzCallbackURL", dependencies: ["FuzzSupport", runtime]),
        // JSON(data:), the response mapper and the session decoder through sign-in, refresh, user, sign-up.
        .executableTarget(name: "FuzzTokenResponse", dependencies: ["FuzzSupport", runtime]),
        // JWSToken(compact:), JSONWebKeySet(data:), IDTokenValidator (with tokens signed here, to reach the claims).
        .executableTarget(name: "FuzzJWT", dependencies: ["FuzzSupport", runtime, tokens]),
        // PasetoV4Public.verify / footer(of:) / keyID(of:), PasetoKeySet and PasetoClaimsValidator.
        .executableTarget(name: "FuzzPaseto", dependencies: ["FuzzSupport", runtime, tokens]),
        // A DPoP-bound client against a hostile server's DPoP-Nonce, WWW-Authenticate and use_dpop_nonce answers.
        .executableTarget(name: "FuzzDPoPChallenge", dependencies: ["FuzzSupport", runtime]),
    ]
)
