// swift-tools-version: 6.2
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// Release builds of the modules an app links keep only what the app reaches (docs/Performance.md, "What the
// linker could strip"): swiftc otherwise marks every public function "used", so the linker keeps it whether the
// app calls it or not (`-internalize-at-link` drops that mark; the symbols stay exported), and on ELF it puts a
// file's internal functions in one section that `--gc-sections` keeps or drops whole (`-function-sections`).
// Neither changes what the code does. SwiftPM lets a versioned dependency carry these flags since tools 6.2.
let linkedSettings: [SwiftSetting] =
    strictSettings + [
        .unsafeFlags(["-Xfrontend", "-internalize-at-link"], .when(configuration: .release)),
        .unsafeFlags(
            ["-Xfrontend", "-function-sections"], .when(platforms: [.linux, .android], configuration: .release)),
    ]
// The engine, the verifiers and the clients are optimised for size: an auth client waits on the network, not on
// its own code (latchkey-bench's wire, restore and DPoP rows measure what this costs).
// With the default trait `LinuxLinkTimeOptimization`, their release objects on Linux are LLVM bitcode that the
// app's link compiles with lld (which Swift's Linux toolchains ship): swiftc gives each function a section but puts
// all of a source file's data in one, so one datum the app reaches keeps the whole file's data and the code it
// points to, while lld's code generation gives every datum a section of its own (docs/Performance.md, "Why the
// linker keeps more on Linux"). The frontend flags follow the driver's `-c` and make the object SwiftPM names
// bitcode; should a driver ever put them first, the objects are native again, only larger.
let linuxLinkTimeOptimization = "LinuxLinkTimeOptimization"
let engineSettings: [SwiftSetting] =
    linkedSettings + [
        .unsafeFlags(["-Osize"], .when(configuration: .release)),
        .unsafeFlags(
            ["-Xfrontend", "-emit-bc", "-Xfrontend", "-lto=llvm-full"],
            .when(platforms: [.linux], configuration: .release, traits: [linuxLinkTimeOptimization])),
    ]
let engineLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(
        ["-use-ld=lld"], .when(platforms: [.linux], configuration: .release, traits: [linuxLinkTimeOptimization]))
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
        // A vendor SDK's own surface, named as its guide names it (a descriptor's "vendorSDK").
        .library(name: "BaseIdP", targets: ["BaseIdP"]),
        .executable(name: "latchkey-gen", targets: ["latchkey-gen"]),
        .executable(name: "latchkey-demo", targets: ["latchkey-demo"]),
        .executable(name: "latchkey-bench", targets: ["latchkey-bench"]),
        .plugin(name: "LatchkeyBuildPlugin", targets: ["LatchkeyBuildPlugin"]),
        .plugin(name: "RegenerateCommand", targets: ["RegenerateCommand"]),
    ],
    traits: [
        .trait(
            name: linuxLinkTimeOptimization,
            description: """
                Linux release builds: the runtime's modules are LLVM bitcode that the app's link optimises with lld, \
                so the linker drops what the app does not reach (about 300 KB of a one-provider app). Turn it off \
                (`traits: []` on the dependency) to build with `--build-system swiftbuild`, whose per-target \
                prelink cannot read bitcode, or to link with a linker other than lld.
                """),
        .default(enabledTraits: [linuxLinkTimeOptimization]),
    ],
    targets: [
        // System libraries
        .systemLibrary(
            name: "CLatchkeyCrypto",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // libcurl's few entry points, opened at run time with dlopen (no libcurl headers or link at build
        // time): the Linux transport, `CurlHTTPTransport`.
        .systemLibrary(name: "CLatchkeyCurl"),

        // What the deployment targets lack, written once: a lock (`Mutex` needs iOS 18), a monotonic clock and a
        // duration (`ContinuousClock`/`Duration` need iOS 16), strict UTF-8 decoding. `package` access, except
        // `LatchkeyDuration`, which the runtime re-exports.
        .target(name: "LatchkeyPlatform", swiftSettings: linkedSettings),

        // The generator pipeline
        // The words the descriptor decoder, the generator and the runtime share (flows, encodings, token
        // formats, client authentication, error codes and kinds, value templates).
        .target(name: "LatchkeyVocabulary", swiftSettings: linkedSettings),
        .target(
            name: "LatchkeyDescriptor", dependencies: ["LatchkeyPlatform", "LatchkeyVocabulary"],
            swiftSettings: strictSettings),
        .target(
            name: "LatchkeyGenerator", dependencies: ["LatchkeyDescriptor", "LatchkeyVocabulary"],
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
            swiftSettings: engineSettings,
            linkerSettings: engineLinkerSettings
        ),

        // The runtime
        .target(
            name: "LatchkeyRuntime",
            dependencies: [
                "LatchkeyPlatform",
                "LatchkeyVocabulary",
                "LatchkeyTokens",
                .target(name: "CLatchkeyCrypto", condition: .when(platforms: [.linux, .android])),
                .target(name: "CLatchkeyCurl", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: engineSettings,
            linkerSettings: engineLinkerSettings
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
            swiftSettings: engineSettings,
            linkerSettings: engineLinkerSettings,
            plugins: ["LatchkeyBuildPlugin"]
        ),
        // Vendor-SDK modules: each is named as the module a descriptor's "vendorSDK" declares, and its one source
        // file is generated by LatchkeyVendorSDKPlugin from the catalog (no descriptor is named here).
        .target(
            name: "BaseIdP",
            dependencies: ["LatchkeyRuntime", "LatchkeyDescriptors"],
            swiftSettings: engineSettings,
            linkerSettings: engineLinkerSettings,
            plugins: ["LatchkeyVendorSDKPlugin"]
        ),
        .target(
            name: "LatchkeyTesting",
            dependencies: [
                "LatchkeyPlatform",
                "LatchkeyRuntime",
                "LatchkeyTokens",
                "LatchkeyVocabulary",
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
        .plugin(name: "LatchkeyVendorSDKPlugin", capability: .buildTool(), dependencies: ["latchkey-gen"]),
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
            name: "LatchkeyRuntimeTests",
            dependencies: [
                "LatchkeyPlatform", "LatchkeyRuntime", "LatchkeyTesting", "LatchkeyTokens", "LatchkeyVocabulary",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LatchkeyTests",
            dependencies: [
                "BaseIdP", "Latchkey", "LatchkeyPlatform", "LatchkeyTesting", "LatchkeyTokens", "LatchkeyVocabulary",
            ],
            // The providers' documented examples, read from the source tree by FidelityTests.
            exclude: ["Fidelity/Fixtures"],
            swiftSettings: strictSettings),
        // The Base IdP guide's Swift snippets, unchanged, against `import BaseIdP` alone.
        .testTarget(name: "BaseIdPGuideTests", dependencies: ["BaseIdP"], swiftSettings: strictSettings),
        // `import Latchkey` and `import LatchkeyRuntime` as an app writes them, beside a module whose types are
        // named like the runtime's internals and those of LatchkeyTokens and LatchkeyVocabulary: the target
        // compiles only while each re-exports its reviewed declarations and nothing more.
        .target(
            name: "LatchkeyNamespaceFixture", path: "Tests/LatchkeyNamespaceFixture", swiftSettings: strictSettings),
        // Test-only descriptors that, with the catalog, make the generator write every construct and label of its
        // `RuntimeConstruct` tables: compiling this target compiles every literal shape the generator can emit.
        .target(
            name: "LatchkeyGeneratorFixtures", dependencies: ["LatchkeyRuntime"],
            path: "Tests/LatchkeyGeneratorFixtures", swiftSettings: strictSettings, plugins: ["LatchkeyBuildPlugin"]),
        // The generator and the runtime agree: every spec literal the generator writes for the catalog and the
        // fixtures equals, field by field, the spec the compiled client holds.
        .testTarget(
            name: "LatchkeySpecAgreementTests",
            dependencies: [
                "Latchkey", "LatchkeyDescriptor", "LatchkeyGenerator", "LatchkeyGeneratorFixtures", "LatchkeyRuntime",
                "LatchkeyVocabulary",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LatchkeyImportTests", dependencies: ["Latchkey", "LatchkeyNamespaceFixture", "LatchkeyRuntime"],
            swiftSettings: strictSettings),
    ]
)
