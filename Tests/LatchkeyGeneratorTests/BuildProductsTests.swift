import Foundation
@_spi(Generated) import LatchkeyTesting
import Testing

/// Issue 27, item 4.4a: the tests that run `latchkey-gen`, `latchkey-demo` and `latchkey-store-crasher` find
/// them in the build folder on Linux and on macOS, where the test process is inside the `.xctest` bundle or a
/// runner outside the build folder.
@Suite struct BuildProductsTests {
    @Test(arguments: [
        // (arguments, loaded .xctest bundles, the build folder expected first)
        (["/p/.build/debug/LatchkeyPackageTests.xctest"], [], "/p/.build/debug"),  // Linux
        (
            ["/p/.build/arm64-apple-macosx/debug/LatchkeyPackageTests.xctest/Contents/MacOS/LatchkeyPackageTests"], [],
            "/p/.build/arm64-apple-macosx/debug"
        ),  // macOS, the bundle's executable
        (
            [
                "/Applications/Xcode.app/Contents/Developer/usr/bin/xctest",
                "/p/.build/arm64-apple-macosx/debug/LatchkeyPackageTests.xctest",
            ], [], "/p/.build/arm64-apple-macosx/debug"
        ),  // macOS, XCTest's runner with the bundle as an argument
        (
            [
                "/Applications/Xcode.app/Contents/Developer/usr/libexec/swift/pm/swiftpm-testing-helper",
                "--test-bundle-path",
                "/p/.build/debug/LatchkeyPackageTests.xctest/Contents/MacOS/LatchkeyPackageTests",
                "--testing-library", "swift-testing",
            ], [], "/p/.build/debug"
        ),  // macOS, SwiftPM's Swift Testing runner
        (
            ["/Applications/Xcode.app/Contents/Developer/usr/bin/xctest"],
            ["/p/.build/debug/LatchkeyPackageTests.xctest"], "/p/.build/debug"
        ),  // macOS, only the loaded bundle tells
        ([".build/debug/LatchkeyPackageTests.xctest"], [], "/work/p/.build/debug"),  // a relative path
    ])
    func buildFolderComesFirst(arguments: [String], bundles: [String], expected: String) {
        let directories = BuildProducts.candidateDirectories(
            arguments: arguments, bundlePaths: bundles, currentDirectory: "/work/p")
        #expect(directories.first == expected, "\(directories)")
        #expect(Set(directories).count == directories.count)
    }

    @Test func theExecutablesFolderAndItsParentComeLast() {
        let directories = BuildProducts.candidateDirectories(
            arguments: ["/p/.build/debug/latchkey-bench"], bundlePaths: [], currentDirectory: "/")
        #expect(directories == ["/p/.build/debug", "/p/.build"])
    }

    @Test(arguments: [
        ("/p/.build/debug/X.xctest", "/p/.build/debug" as String?),
        ("/p/.build/debug/X.xctest/Contents/MacOS/X", "/p/.build/debug"),
        ("/usr/bin/xctest", nil),
        ("--testing-library", nil),
    ])
    func folderHoldingTestBundle(path: String, expected: String?) {
        #expect(BuildProducts.folderHoldingTestBundle(path) == expected)
    }

    // The products are built for the host only: an iOS test bundle has none beside it.
    #if os(macOS) || os(Linux)
        @Test func thisProcessFindsTheProducts() {
            #expect(BuildProducts.executable("latchkey-gen") != nil, "\(BuildProducts.directories)")
            #expect(BuildProducts.folder(containing: "LatchkeyRuntime.swiftmodule") != nil)
        }
    #endif
}
