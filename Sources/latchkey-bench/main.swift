import Foundation

// latchkey-bench: the figures of issue 9, each beside its floor measured in the same run.
// `swift run -c release latchkey-bench [--json FILE]`; see --help and docs/Performance.md.

func emit(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}

func machineLine() -> String {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let load =
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
        .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    #if DEBUG
        let configuration = "debug (figures are not representative: use -c release)"
    #else
        let configuration = "release"
    #endif
    #if os(Linux)
        let system = "Linux"
    #else
        let system = "Darwin"
    #endif
    return "\(system), \(cores) cores, load average \(load), \(configuration) build"
}

// Subcommands of scripts/supabase-peer.sh: the GoTrue-shaped server, and Latchkey's side against it.
switch CommandLine.arguments.dropFirst().first {
case "serve-gotrue":
    do {
        try await GoTrueServer.serveForever()
    } catch {
        FileHandle.standardError.write(Data("latchkey-bench serve-gotrue: \(error)\n".utf8))
        exit(1)
    }
case "supabase-side":
    do {
        let side = try SupabaseSideBench.parse(Array(CommandLine.arguments.dropFirst(2)))
        try await runDetached { try await side.run() }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("latchkey-bench supabase-side: \(error)\n".utf8))
        exit(1)
    }
default: break
}

let options: BenchOptions
do {
    options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("latchkey-bench: \(error)\n".utf8))
    exit(2)
}
if options.help {
    print(BenchOptions.usage)
    exit(0)
}

let started = Clock.now()
let startedAt = ISO8601DateFormatter().string(from: Date())
emit("latchkey-bench — \(startedAt) — \(machineLine())\n")

var results: [SectionResult] = []
var errors: [(String, String)] = []

@MainActor func section(_ key: String, _ body: () async throws -> SectionResult) async {
    guard options.sections.contains(key) else { return }
    let start = Clock.now()
    do {
        var result = try await body()
        result.seconds = Clock.seconds(start, Clock.now())
        for table in result.tables { emit(table.render()) }
        emit("  (section took \(Format.duration(result.seconds)))\n")
        results.append(result)
    } catch {
        emit("\n== \(key) ==\nERROR: \(error)\n")
        errors.append((key, "\(error)"))
    }
}

await section("generator") {
    let seeds = try GeneratorBench.loadSeeds(directory: options.descriptorsDirectory)
    return try GeneratorBench(seeds: seeds, counts: options.descriptorCounts, budgetSeconds: options.generatorBudget)
        .run()
}
await section("token") {
    try await runDetached { try await TokenFastPathBench(batches: 7, batchSeconds: 0.15).run() }
}
await section("restore") {
    let samples = options.quick ? 20 : 200
    return try await runDetached { try await RestoreBench(samples: samples).run() }
}
await section("coalescing") {
    let callers = options.callerCounts
    return try await runDetached { try await CoalescingBench(callerCounts: callers, serverDelay: 0.05).run() }
}
await section("flows") {
    try await runDetached { try await FlowRequestsBench().run() }
}
await section("wire") {
    let samples = options.wireSamples
    return try await runDetached { try await WireOverheadBench(samples: samples).run() }
}
await section("hostile") {
    try await runDetached { try await HostileResponseBench().run() }
}
await section("peer") {
    let root = BenchOptions.packageRoot()
    let setUp = options.peerSetup
    return try await runDetached { try await PeerBench(packageRoot: root, setUp: setUp).run() }
}
await section("dpop") {
    try await runDetached { try await DPoPProofBench(rounds: 10, proofsPerRound: 200, requestsPerRound: 20).run() }
}
await section("size") {
    let root = BenchOptions.packageRoot()
    return try await runDetached { try await ProviderSizeBench(packageRoot: root).run() }
}

let targets =
    results.flatMap(\.targets)
    + errors.map {
        TargetResult(name: "section \($0.0) ran", outcome: .missed, detail: $0.1)
    }
let total = Clock.seconds(started, Clock.now())
emit("\n== Targets ==\n")
for target in targets { emit(target.line + "\n") }
emit("Total runtime: \(Format.duration(total))\n")

if let path = options.jsonPath {
    let report = JSONOut.object([
        ("tool", .string("latchkey-bench")),
        ("startedAt", .string(startedAt)),
        ("machine", .string(machineLine())),
        ("totalSeconds", .number(total)),
        (
            "sections",
            .object(
                results.map { result in
                    (
                        result.key,
                        JSONOut.object([
                            ("seconds", .number(result.seconds)), ("tables", .array(result.tables.map(\.json))),
                        ])
                    )
                })
        ),
        ("targets", .array(targets.map(\.json))),
        ("errors", .array(errors.map { .object([("section", .string($0.0)), ("error", .string($0.1))]) })),
    ])
    do {
        try Data((report.serialized() + "\n").utf8).write(to: URL(fileURLWithPath: path))
        emit("JSON written to \(path)\n")
    } catch {
        FileHandle.standardError.write(Data("latchkey-bench: cannot write \(path): \(error)\n".utf8))
        exit(1)
    }
}
exit(errors.isEmpty ? 0 : 1)
