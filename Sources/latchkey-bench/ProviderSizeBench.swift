import Foundation

/// Section 7: what an unused provider costs an app, in bytes of a stripped release binary (target: 0), and the size
/// of an app that uses one provider (target: ≤ 2.0 MB).
///
/// Runs `scripts/provider-size.sh`, which builds tiny apps that all use `SupabaseClient` and nothing else,
/// against a catalog of one provider (supabase) and then of two (supabase and oidc): `One` selects supabase
/// in its `latchkey-providers.json`, `Two` selects both, `Catalog` imports the opt-in `Latchkey` library.
/// The target is `One`'s growth when the catalog gains a provider; the app-size target is `One` as a default
/// release build. Beside it, `One` from an app that turns the package's default trait `LinuxLinkTimeOptimization`
/// off (`traits: []`), as apps built with `--build-system swiftbuild` must: what the trait saves on Linux
/// (docs/Performance.md says why). The section is skipped, with the reason, when the script finds a toolchain step
/// missing (`swift`, `strip`, `nm`, `git`); never estimated.
struct ProviderSizeBench {
    let packageRoot: String

    /// Issue 30's target for a stripped release app that uses one provider: 2.0 MB (decimal).
    static let appSizeTarget = 2_000_000

    func run() async throws -> SectionResult {
        let script = packageRoot + "/scripts/provider-size.sh"
        guard FileManager.default.fileExists(atPath: script) else {
            return Self.skipped("scripts/provider-size.sh is not beside the package")
        }
        FileHandle.standardOutput.write(Data("size: building tiny apps in release mode (several minutes)\n".utf8))
        let output = try await PeerBench.run("/bin/bash", [script])
        let lines = output.output.split(separator: "\n").map(String.init)
        if let skip = lines.first(where: { $0.hasPrefix("SKIP ") }) {
            return Self.skipped(String(skip.dropFirst(5)))
        }
        var sizes: [String: Int] = [:]
        for line in lines where line.hasPrefix("SIZE ") {
            let parts = line.split(separator: " ")
            if parts.count == 3, let bytes = Int(parts[2]) { sizes[String(parts[1])] = bytes }
        }
        guard output.status == 0, let oneAlone = sizes["one.One"], let oneOfTwo = sizes["two.One"],
            let twoOfTwo = sizes["two.Two"], let catalogOfOne = sizes["one.Catalog"],
            let catalogOfTwo = sizes["two.Catalog"], let onePlain = sizes["plain.One"]
        else {
            throw BenchError("scripts/provider-size.sh failed (status \(output.status)): \(PeerBench.tail(output))")
        }
        var table = Table(
            "Size of an unused provider: stripped release binary of a tiny app that uses SupabaseClient only",
            [
                ("app", "app", false), ("catalog of 1", "catalogOf1", true), ("catalog of 2", "catalogOf2", true),
                ("unused provider", "unusedProviderBytes", true),
            ])
        table.add([.text("One: selects supabase"), .int(oneAlone), .int(oneOfTwo), .int(oneOfTwo - oneAlone)])
        // The same app with the package's default trait off: the runtime's objects native, as swiftc makes them.
        table.add([
            .text("One, trait LinuxLinkTimeOptimization off (traits: [])"), .int(onePlain),
            .text("-"), .text("-"),
        ])
        table.add([.text("Two: selects supabase, oidc"), .text("-"), .int(twoOfTwo), .int(twoOfTwo - oneOfTwo)])
        table.add([
            .text("Catalog: import Latchkey (opt-in)"), .int(catalogOfOne), .int(catalogOfTwo),
            .int(catalogOfTwo - catalogOfOne),
        ])
        table.notes = [
            "catalog of 1 / of 2: the Latchkey package's Descriptors/ holds supabase, then supabase and oidc (bytes).",
            "unused provider: the growth when oidc joins (for Two: selecting oidc without using it, against One).",
        ]
        let growth = oneOfTwo - oneAlone
        table.notes.append(
            "app size: One with a catalog of 1, the app of issue 30's target (a stripped release app that uses one "
                + "provider ≤ \(Format.int(Self.appSizeTarget)) bytes; the issue quotes supabase-swift's equivalent "
                + "at 4.39 MB, not measured here). On Linux the Swift runtime and Foundation are shared libraries, "
                + "not in the binary, as on Apple platforms.")
        return SectionResult(
            key: "size", tables: [table],
            targets: [
                .check(
                    "an unused provider adds 0 bytes to an app that selects its providers", growth == 0,
                    "\(growth) bytes; the opt-in catalog library grows by \(catalogOfTwo - catalogOfOne)"),
                .check(
                    "a stripped release app that uses one provider ≤ 2.0 MB", oneAlone <= Self.appSizeTarget,
                    "\(Format.int(oneAlone)) bytes (One, selecting supabase, `swift build -c release`; "
                        + "\(Format.int(onePlain)) with the trait LinuxLinkTimeOptimization off)"),
            ])
    }

    static func skipped(_ why: String) -> SectionResult {
        var table = Table("Size of an unused provider", [("status", "status", false)])
        table.add([.text("skipped: " + why)])
        return SectionResult(
            key: "size", tables: [table],
            targets: [TargetResult(name: "an unused provider adds 0 bytes", outcome: .skipped, detail: why)])
    }
}
