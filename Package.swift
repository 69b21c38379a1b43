// swift-tools-version: 6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Latchkey",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "Latchkey", targets: ["Latchkey"]),
        .library(name: "LatchkeyTesting", targets: ["LatchkeyTesting"]),
        .library(name: "LatchkeyDescriptor", targets: ["LatchkeyDescriptor"]),
        .library(name: "LatchkeyRuntime", targets: ["LatchkeyRuntime"]),
        .library(name: "LatchkeyTokens", targets: ["LatchkeyTokens"]),
        .executable(name: "latchkey-gen", targets: ["latchkey-gen"]),
        .executable(name: "latchkey-demo", targets: ["latchkey-demo"]),
        .executable(name: "latchkey-bench", targets: ["latchkey-bench"]),
        .plugin(name: "LatchkeyBuildPlugin", targets: ["LatchkeyBuildPlugin"]),
        .plugin(name: "RegenerateCommand", targets: ["RegenerateCommand"]),
    ],
    targets: [
        // System libraries
        .systemLibrary(
            name: "CLatchkeyCrypto",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),

        // What the deployment targets lack, written once: a lock (`Mutex` needs iOS 18), a monotonic clock and a
        // duration (`ContinuousClock`/`Duration` need iOS 16), strict UTF-8 decoding. `package` access, except
        // `LatchkeyDuration`, which the runtime re-exports.
        .target(name: "LatchkeyPlatform", swiftSettings: strictSettings),

        // The generator pipeline
        // The words the descriptor decoder, the generator and the runtime share (flows, encodings, token
        // formats, client authentication, error codes and kinds, value templates).
        .target(name: "LatchkeyVocabulary", swiftSettings: strictSettings),
        .target(
            name: "LatchkeyDescriptor", dependencies: ["LatchkeyPlatform", "LatchkeyVocabulary"],
            swiftSettings: strictSettings),
        .target(
            name: "LatchkeyGenerator", dependencies: ["LatchkeyDescriptor", "LatchkeyPlatform", "LatchkeyVocabulary"],
            swiftSettings: strictSettings),
        .executableTarget(name: "latchkey-gen", dependencies: ["LatchkeyGenerator"], swiftSettings: strictSettings),

        // The token verifiers (JWS/JWKS, ID-token claims, PASETO v4.public) with AuthError and their crypto,
        // a product of their own for backends.
        .target(
            name: "LatchkeyTokens",
            dependencies: [
                "LatchkeyPlatform",
                "LatchkeyVocabulary",
                .target(name: "CLatchkeyCrypto", condition: .when(platforms: [.linux, .android])),
            ],
            swiftSettings: strictSettings
        ),

        // The runtime
        .target(
            name: "LatchkeyRuntime",
            dependencies: [
                "LatchkeyPlatform",
                "LatchkeyVocabulary",
                "LatchkeyTokens",
                .target(name: "CLatchkeyCrypto", condition: .when(platforms: [.linux, .android])),
            ],
            swiftSettings: strictSettings
        ),

        // The descriptors are this target's own folder, so that SwiftPM re-plans (and re-runs the build
        // plugins) whenever one is added or removed. No descriptor is named here: the manifest must not
        // depend on the folder's contents (SwiftPM caches its evaluation). LatchkeyDescriptorCheck takes
        // each descriptor as an input, which is what makes SwiftPM count them as handled files.
        .target(
            name: "LatchkeyDescriptors",
            path: "Descriptors",
            exclude: ["descriptor.schema.json"],
            swiftSettings: strictSettings,
            plugins: ["LatchkeyDescriptorCheck"]
        ),

        // The library users import: the runtime plus one generated client per descriptor.
        .target(
            name: "Latchkey",
            dependencies: ["LatchkeyRuntime", "LatchkeyDescriptors"],
            swiftSettings: strictSettings,
            plugins: ["LatchkeyBuildPlugin"]
        ),
        .target(
            name: "LatchkeyTesting",
            dependencies: [
                "LatchkeyPlatform",
                "LatchkeyRuntime",
                .target(name: "CLatchkeyCrypto", condition: .when(platforms: [.linux, .android])),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "latchkey-demo", dependencies: ["Latchkey", "LatchkeyPlatform", "LatchkeyTesting"],
            swiftSettings: strictSettings),

        .executableTarget(
            name: "latchkey-bench",
            dependencies: ["Latchkey", "LatchkeyGenerator", "LatchkeyPlatform", "LatchkeyTesting"],
            swiftSettings: strictSettings
        ),

        // A helper process for the crash-safety and cross-process tests of the file store.
        .executableTarget(
            name: "latchkey-store-crasher",
            dependencies: ["LatchkeyPlatform", "LatchkeyRuntime"],
            swiftSettings: strictSettings
        ),

        // Plugins
        .plugin(name: "LatchkeyBuildPlugin", capability: .buildTool(), dependencies: ["latchkey-gen"]),
        .plugin(name: "LatchkeyDescriptorCheck", capability: .buildTool(), dependencies: ["latchkey-gen"]),
        .plugin(
            name: "RegenerateCommand",
            capability: .command(
                intent: .custom(verb: "regenerate", description: "Rewrite Generated/ from Descriptors/ and Templates/"),
                permissions: [.writeToPackageDirectory(reason: "Generated/ mirrors the generated clients for review")]
            ),
            dependencies: ["latchkey-gen"]
        ),

        // Tests
        .testTarget(name: "LatchkeyPlatformTests", dependencies: ["LatchkeyPlatform"], swiftSettings: strictSettings),
        .testTarget(
            name: "LatchkeyDescriptorTests", dependencies: ["LatchkeyDescriptor", "LatchkeyVocabulary"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LatchkeyGeneratorTests",
            dependencies: [
                "LatchkeyGenerator", "LatchkeyPlatform", "LatchkeyRuntime", "LatchkeyTesting", "LatchkeyVocabulary",
            ],
            swiftSettings: strictSettings),
        // The verifiers as a backend uses them: the tests import LatchkeyTokens, not the runtime (LatchkeyTesting
        // only signs the test tokens).
        .testTarget(
            name: "LatchkeyTokensTests", dependencies: ["LatchkeyTokens", "LatchkeyTesting"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LatchkeyRuntimeTests", dependencies: ["LatchkeyPlatform", "LatchkeyRuntime", "LatchkeyTesting"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LatchkeyTests",
            dependencies: ["Latchkey", "LatchkeyPlatform", "LatchkeyTesting", "LatchkeyVocabulary"],
            // The providers' documented examples, read from the source tree by FidelityTests.
            exclude: ["Fidelity/Fixtures"],
            swiftSettings: strictSettings),
        // `import Latchkey` as an app writes it, beside a module whose types are named like the runtime's
        // internals: the target compiles only while Latchkey re-exports its façade and nothing more.
        .target(
            name: "LatchkeyNamespaceFixture", path: "Tests/LatchkeyNamespaceFixture", swiftSettings: strictSettings),
        .testTarget(
            name: "LatchkeyImportTests", dependencies: ["Latchkey", "LatchkeyNamespaceFixture"],
            swiftSettings: strictSettings),
    ]
)
